import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { HostError, selectForkCut } from 'dsh-host';
import { arbitraryLog, logEvents } from '@dsh/test-utils';

const log = (...types: string[]) => logEvents<SessionEvent>(types.map((type) => [type]));

function isOpenAfter(events: readonly SessionEvent[], cut: number): boolean {
  let open = false;
  for (const event of events.slice(0, cut + 1)) {
    if (event.type === 'turn/start') open = true;
    if (event.type === 'turn/end') open = false;
  }
  return open;
}

function expectInvalidCut(run: () => unknown): void {
  try {
    run();
  } catch (error) {
    expect(HostError.is(error) && error.code).toBe('INVALID_CUT');
    return;
  }
  expect.fail('expected INVALID_CUT');
}

describe('selectForkCut with an explicit atSeq', () => {
  it('returns every existing seq unchanged, inside or outside turns', () => {
    fc.assert(
      fc.property(
        arbitraryLog().filter((events) => events.length > 0),
        fc.nat(),
        (events, pick) => {
          const atSeq = pick % events.length;
          expect(selectForkCut(events, atSeq)).toBe(atSeq);
        },
      ),
    );
  });

  it('rejects a seq that is not in the observation with INVALID_CUT naming the last seq', () => {
    fc.assert(
      fc.property(
        arbitraryLog(),
        fc.oneof(fc.integer({ max: -1 }), fc.double({ noInteger: true }), fc.nat({ max: 50 })),
        (events, offset) => {
          const atSeq = Number.isInteger(offset) && offset >= 0 ? events.length + offset : offset;
          expectInvalidCut(() => selectForkCut(events, atSeq));
        },
      ),
    );
    expect(() => selectForkCut(log('session/end-seed', 'turn/start'), 7)).toThrow(/0\.\.1/);
  });
});

describe('selectForkCut with atSeq omitted', () => {
  it('ends at a point with no open turn, right before the next turn/start or input/queued', () => {
    fc.assert(
      fc.property(arbitraryLog(), (events) => {
        const cut = selectForkCut(events);
        expect(cut).toBeGreaterThanOrEqual(-1);
        expect(cut).toBeLessThan(events.length);
        expect(isOpenAfter(events, cut)).toBe(false);
        const next = events[cut + 1];
        if (next !== undefined) expect(['turn/start', 'input/queued']).toContain(next.type);
      }),
    );
  });

  it('keeps the latest closed turn and its whole independent tail', () => {
    fc.assert(
      fc.property(arbitraryLog(), (events) => {
        const cut = selectForkCut(events);
        const lastTurnEnd = events.findLastIndex((event) => event.type === 'turn/end');
        expect(cut).toBeGreaterThanOrEqual(lastTurnEnd);
        const tail = events.slice(lastTurnEnd + 1, cut + 1);
        expect(tail.filter((event) => event.type === 'turn/start' || event.type === 'input/queued')).toEqual([]);
      }),
    );
  });

  it('with closed turns only and nothing queued after the last, inherits the whole log', () => {
    fc.assert(
      fc.property(arbitraryLog({ truncate: false }), (events) => {
        const lastTurnEnd = events.findLastIndex((event) => event.type === 'turn/end');
        fc.pre(!events.slice(lastTurnEnd + 1).some((event) => event.type === 'input/queued' || event.type === 'turn/start'));
        expect(selectForkCut(events)).toBe(events.length - 1);
      }),
    );
  });

  it('keeps a title, config and manual compaction after the last turn but not the queued input after them', () => {
    const events = log(
      'session/end-seed',
      'turn/start',
      'user/message',
      'turn/end',
      'session/title',
      'compaction/start',
      'user/message',
      'compaction/end',
      'session/config',
      'input/queued',
      'session/title',
      'turn/start',
    );
    expect(selectForkCut(events)).toBe(8);
  });

  it('stops before an open turn that follows the latest closed turn', () => {
    expect(selectForkCut(log('session/end-seed', 'turn/start', 'turn/end', 'session/title', 'turn/start', 'step/start'))).toBe(3);
  });

  it('uses the standalone prefix when no turn has closed, possibly empty', () => {
    expect(selectForkCut(log('session/end-seed', 'session/title', 'turn/start', 'step/start'))).toBe(1);
    expect(selectForkCut(log('session/end-seed', 'input/queued', 'turn/start'))).toBe(0);
    expect(selectForkCut(log('turn/start', 'user/message'))).toBe(-1);
    expect(selectForkCut(log('session/end-seed', 'session/title'))).toBe(1);
    expect(selectForkCut([])).toBe(-1);
  });
});
