// The Session constructor is internal (sessions come from a store); these tests build seeds directly.
import { describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { LogBuilder } from '@dsh/test-utils';
import { Session } from './session.js';
import type { SessionInit, SessionSeed } from './session-init.js';
import { arraySource } from '../sources/event-source.js';
import type { SessionSink } from './session-sink.js';

const sink: SessionSink = { write: () => Promise.resolve(), release: () => Promise.resolve() };
const header = (extra: Partial<SessionHeader> = {}): SessionHeader => ({
  format: 'dsh-session',
  version: 7,
  id: 'x',
  createdAt: 0,
  inheritedEventCount: 0,
  ...extra,
});
const forkHeader = (cut: number) => header({ parentSession: 'p', forkCut: cut, inheritedEventCount: cut + 1 });

/** A whole fork seed in memory (`buildForkSeed`'s output) as the store hands one over: its prefix through a source. */
function forkSeed(events: readonly SessionEvent[], cut: number): SessionSeed {
  const count = Math.max(0, cut + 1);
  return { kind: 'fork-of', inherited: arraySource(events, Math.min(count, events.length)), cut, events: events.slice(count) };
}

function refusal(build: () => unknown): SessionError {
  try {
    build();
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

const parent: SessionEvent[] = new LogBuilder()
  .endSeed()
  .turn({ steps: [{ calls: [{ run: 'started' }], open: true }], end: 'open' }).events;

describe('Session construction from seeds (SPEC §5.3)', () => {
  it('a fork seed: lifecycle starts at the inherited marker, live at the end of the seed', () => {
    const cut = parent.length - 1;
    const seed = buildForkSeed(parent, cut);
    const session = new Session({
      header: forkHeader(cut),
      seed: forkSeed(seed, cut),
      durableCount: 0,
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink,
      now: () => 0,
    });
    expect([session.inheritedEventCount, session.firstLifecycleSeq, session.firstLiveSeq]).toEqual([cut + 1, cut + 1, seed.length]);
    expect(session.events).toEqual(seed);
  });

  it('accepts a fork seed only when the cut identifies its final inherited marker', () => {
    const cut = parent.length - 1;
    const seed = buildForkSeed(parent, cut);
    for (const wrong of [cut - 1, cut + 1, 0]) {
      const error = refusal(
        () =>
          new Session({
            header: forkHeader(wrong),
            seed: forkSeed(seed, wrong),
            durableCount: 0,
            validatedCount: 0,
            formatVersion: CURRENT_FORMAT_VERSION,
            sink,
            now: () => 0,
          }),
      );
      expect(error.code).toBe('INVALID_CUT');
    }
    // A nested child's seed holds an ancestor marker; only the final one is its own.
    const child = LogBuilder.continue(seed).turn({ user: 'more' }).events;
    const grandchild = buildForkSeed(child, child.length - 1);
    expect(
      refusal(
        () =>
          new Session({
            header: forkHeader(cut),
            seed: forkSeed(grandchild, cut),
            durableCount: 0,
            validatedCount: 0,
            formatVersion: CURRENT_FORMAT_VERSION,
            sink,
            now: () => 0,
          }),
      ).code,
    ).toBe('INVALID_CUT');
    const nested = new Session({
      header: forkHeader(child.length - 1),
      seed: forkSeed(grandchild, child.length - 1),
      durableCount: 0,
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink,
      now: () => 0,
    });
    expect(nested.firstLifecycleSeq).toBe(child.length);
  });

  it('refuses a header whose inheritedEventCount disagrees with the cut', () => {
    const seed = buildForkSeed(parent, 2);
    expect(
      refusal(
        () =>
          new Session({
            header: header({ parentSession: 'p', forkCut: 2, inheritedEventCount: 1 }),
            seed: forkSeed(seed, 2),
            durableCount: 0,
            validatedCount: 0,
            formatVersion: CURRENT_FORMAT_VERSION,
            sink,
            now: () => 0,
          }),
      ).code,
    ).toBe('INVALID_CUT');
  });

  it('a restored seed gets a plain marker unless it already ends with one; lifecycle starts at the stored length', () => {
    const stored = new LogBuilder().endSeed().turn({}).events;
    const restored = new Session({
      header: header(),
      seed: { kind: 'restored', events: stored, storedLength: stored.length },
      durableCount: stored.length,
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink,
      now: () => 0,
    });
    expect(restored.events.slice(stored.length)).toEqual([
      { seq: stored.length, type: 'session/end-seed', time: stored.at(-1)!.time, data: {} },
    ]);
    expect([restored.firstLifecycleSeq, restored.firstLiveSeq]).toEqual([stored.length, stored.length + 1]);
    const again = new Session({
      header: header(),
      seed: { kind: 'restored', events: restored.events, storedLength: restored.events.length },
      durableCount: restored.events.length,
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink,
      now: () => 0,
    });
    expect(again.events).toEqual(restored.events);
    expect([again.firstLifecycleSeq, again.firstLiveSeq]).toEqual([restored.events.length, restored.events.length]);
  });

  it('validates the seed: an invalid stored relationship is refused with the codec’s code', () => {
    const broken = new LogBuilder()
      .endSeed()
      .turn({})
      .events.filter((event) => event.type !== 'turn/start')
      .map((event, seq) => ({ ...event, seq }));
    expect(
      refusal(
        () =>
          new Session({
            header: header(),
            seed: { kind: 'restored', events: broken, storedLength: broken.length },
            durableCount: 0,
            validatedCount: 0,
            formatVersion: CURRENT_FORMAT_VERSION,
            sink,
            now: () => 0,
          }),
      ).code,
    ).toBe('INVALID_RELATIONSHIP');
  });

  it('a log the store creates whole: the seed and its appends count as durable, checked as append checks them', async () => {
    const cut = parent.length - 1;
    const seed = buildForkSeed(parent, cut);
    const writes: number[] = [];
    const counting: SessionSink = { write: (_batch, from) => (writes.push(from), Promise.resolve()), release: () => Promise.resolve() };
    const init: SessionInit = {
      header: forkHeader(cut),
      seed: forkSeed(seed, cut),
      durableCount: 'all',
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink: counting,
      now: () => 5,
    };
    const session = new Session({ ...init, appends: [{ type: 'session/title', data: { title: 'child' } }] });
    expect(session.firstLiveSeq).toBe(seed.length);
    expect(session.eventsFrom(seed.length)).toMatchObject([{ seq: seed.length, type: 'session/title', data: { title: 'child' } }]);
    expect(session.title).toBe('child');
    await session.flush();
    expect(writes).toEqual([]);
    // What comes after the constructor is written through the sink as before.
    session.append('session/title', { title: 'later' });
    await session.flush();
    expect(writes).toEqual([seed.length + 1]);
    // An append the constructor makes is refused as append refuses it: the same code and message.
    const bad = { type: 'session/config', data: { tools: 'bash' } };
    const made = refusal(() => new Session({ ...init, appends: [bad] }));
    const appended = refusal(() => new Session({ ...init, durableCount: 0 }).append(bad.type, bad.data));
    expect([made.code, made.message]).toEqual([appended.code, appended.message]);
    expect(made.message).toContain(`Cannot append session/config at seq ${seed.length} of session x`);
  });
});
