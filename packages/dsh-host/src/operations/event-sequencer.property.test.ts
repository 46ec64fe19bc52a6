import type { SessionEvent } from 'dsh-codec';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createEventSequencer } from './event-sequencer.js';

const event = (seq: number): SessionEvent =>
  ({ v: 5, seq, time: seq, type: 'session/title', data: { title: String(seq) } }) as unknown as SessionEvent;

/**
 * Two feeds of one session, as `host.watch` has them on PostgreSQL: the store's (every committed seq
 * from some point, in order) and this host's live appends (a contiguous run from where it opened the
 * session, which may start before or after the store's feed has caught up), interleaved anyhow.
 */
const twoFeeds = fc
  .record({ total: fc.integer({ min: 1, max: 40 }), from: fc.integer({ min: 0, max: 45 }), localStart: fc.nat(40), storeStart: fc.nat(40) })
  .chain(({ total, from, localStart, storeStart }) => {
    const local = Array.from(
      { length: Math.max(0, total - Math.min(localStart, total)) },
      (_, index) => Math.min(localStart, total) + index,
    );
    const store = Array.from(
      { length: Math.max(0, total - Math.min(storeStart, from, total)) },
      (_, index) => Math.min(storeStart, from, total) + index,
    );
    return fc.record({
      total: fc.constant(total),
      from: fc.constant(from),
      merged: fc.shuffledSubarray([...local.map((seq) => ({ feed: 'local', seq })), ...store.map((seq) => ({ feed: 'store', seq }))], {
        minLength: local.length + store.length,
      }),
    });
  });

/** Keeps each feed's own order while interleaving the two feeds arbitrarily. */
function keepFeedOrder(merged: readonly { feed: string; seq: number }[]): number[] {
  const next: Record<string, number[]> = { local: [], store: [] };
  for (const item of merged) next[item.feed]?.push(item.seq);
  for (const seqs of Object.values(next)) seqs.sort((a, b) => a - b);
  return merged.map((item) => next[item.feed]?.shift() ?? -1);
}

describe('createEventSequencer', () => {
  it('holding events ahead of a gap, two feeds interleaved anyhow give every seq from `from` once, in order', () => {
    fc.assert(
      fc.property(twoFeeds, ({ total, from, merged }) => {
        const seen: number[] = [];
        const sequencer = createEventSequencer(from, (delivered) => seen.push(delivered.seq), { holdAhead: true });
        for (const seq of keepFeedOrder(merged)) sequencer.push(event(seq));
        const expected = Array.from({ length: Math.max(0, total - from) }, (_, index) => from + index);
        expect(seen).toEqual(expected);
        expect(sequencer.next()).toBe(Math.max(from, total));
      }),
    );
  });

  it('without holding, an event past a gap is delivered at once and the gap is never filled later', () => {
    const seen: number[] = [];
    const sequencer = createEventSequencer(0, (delivered) => seen.push(delivered.seq), { holdAhead: false });
    for (const seq of [0, 1, 4, 2, 3, 5]) sequencer.push(event(seq));
    expect(seen).toEqual([0, 1, 4, 5]);
  });

  it('holding, an event past a gap waits until the gap is filled', () => {
    const seen: number[] = [];
    const sequencer = createEventSequencer(0, (delivered) => seen.push(delivered.seq), { holdAhead: true });
    for (const seq of [0, 3, 4]) sequencer.push(event(seq));
    expect(seen).toEqual([0]);
    sequencer.push(event(1));
    expect(seen).toEqual([0, 1]);
    sequencer.push(event(2));
    expect(seen).toEqual([0, 1, 2, 3, 4]);
  });
});
