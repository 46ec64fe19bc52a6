import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { logUserMessage } from '@dsh/test-utils';
import { createEventChecker, CURRENT_FORMAT_VERSION, syntheticResultError, syntheticResultMessage, type SessionEvent } from 'dsh-codec';
import { logPlan, renderLog } from '../__fixtures__/arbitrary-logs.js';
import { CodecLog, completedTurn } from '../__fixtures__/build-log.js';

/** Feeds `events` to a fresh checker; fails the test if any is refused. */
function acceptAll(events: readonly SessionEvent[]) {
  const checker = createEventChecker();
  for (const event of events) expect(checker.accept(event), `seq ${String(event.seq)}`).toEqual([]);
  return checker;
}

/** A log whose step 1 of turn 1 is open and declares calls `c1` and `c2`; `c1` has started. */
function openStep(): CodecLog {
  return new CodecLog().turnStart(1).user('hi').stepStart(1, 1).assistant(1, 1, '', ['c1', 'c2']).call(1, 1, 'c1');
}

function ev(seq: number, type: string, data: unknown, extra: Record<string, unknown> = {}): unknown {
  return { seq, type, time: 5, data, ...extra };
}

describe('createEventChecker', () => {
  it('accepts a complete log event by event and advances nextSeq', () => {
    const log = completedTurn(new CodecLog().title('t').queued('in1', 'hello'), 1);
    const checker = acceptAll(log.events);
    expect(checker.nextSeq).toBe(log.events.length);
  });

  it('refuses an event without changing its state', () => {
    const checker = createEventChecker();
    const issues = checker.accept(ev(0, 'turn/start', { turn: 2 }));
    expect(issues).toMatchObject([{ code: 'INVALID_RELATIONSHIP', seq: 0, path: ['events', 0, 'data', 'turn'] }]);
    expect(issues[0]?.message).toContain('expected turn 1');
    expect(checker.nextSeq).toBe(0);
    expect(checker.accept(ev(0, 'turn/start', { turn: 1 }))).toEqual([]);
    expect(checker.nextSeq).toBe(1);
  });

  it('requires contiguous seqs from 0', () => {
    const checker = createEventChecker();
    expect(checker.accept(ev(1, 'session/title', { title: 'x' }))).toMatchObject([{ code: 'INVALID_EVENT', path: ['events', 0, 'seq'] }]);
    expect(checker.accept(ev(0, 'session/title', { title: 'x' }))).toEqual([]);
    expect(checker.accept(ev(0, 'session/title', { title: 'x' }))[0]?.message).toContain('expected seq 1');
  });

  it('requires exactly the envelope keys, an integer time and ignorable only as true', () => {
    const checker = createEventChecker();
    expect(checker.accept(ev(0, 'session/title', { title: 'x' }, { extra: 1 }))).toMatchObject([{ path: ['events', 0, 'extra'] }]);
    expect(checker.accept({ seq: 0, type: 'session/title', data: { title: 'x' } })).toMatchObject([{ path: ['events', 0, 'time'] }]);
    expect(checker.accept(ev(0, 'session/title', { title: 'x' }, { time: 1.5 }))).toMatchObject([{ path: ['events', 0, 'time'] }]);
    expect(checker.accept(ev(0, 'session/title', { title: 'x' }, { ignorable: false }))).toMatchObject([
      { path: ['events', 0, 'ignorable'] },
    ]);
    expect(checker.accept({ seq: 0, type: 'session/title', time: 1 })).toMatchObject([{ path: ['events', 0, 'data'] }]);
    expect(checker.accept('not an event')).toMatchObject([{ code: 'INVALID_EVENT' }]);
  });

  it('refuses data that is not lossless JSON', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const data of [
      { x: Number.NaN },
      { x: undefined },
      { x: -0 },
      { x: new Array<number>(3) },
      { x: new Date(0) },
      cyclic,
      { x: Infinity },
    ]) {
      const issues = createEventChecker().accept(ev(0, 'plugin/thing', data, { ignorable: true }));
      expect(issues).toMatchObject([{ code: 'INVALID_EVENT' }]);
      expect(issues[0]?.message).toContain('lossless JSON');
    }
  });

  it('checks core payloads exactly', () => {
    const checker = createEventChecker();
    expect(checker.accept(ev(0, 'turn/start', { turn: '1' }))).toMatchObject([
      { code: 'INVALID_EVENT', path: ['events', 0, 'data', 'turn'] },
    ]);
    expect(checker.accept(ev(0, 'turn/start', { turn: 1, extra: true }))).toMatchObject([
      { code: 'INVALID_EVENT', path: ['events', 0, 'data'] },
    ]);
    expect(checker.accept(ev(0, 'turn/start', { turn: 1.5 }))).toMatchObject([{ code: 'INVALID_EVENT' }]);
    expect(
      checker.accept(ev(0, 'tool/call', { turn: 1, step: 1, callId: 'c', name: 'n', arguments: '{}', effect: 'maybe' }))[0]?.message,
    ).toContain('got "maybe"');
  });

  it('admits an unknown type only with ignorable: true', () => {
    expect(createEventChecker().accept(ev(0, 'compaction/start', {}))).toMatchObject([
      { code: 'INVALID_EVENT', path: ['events', 0, 'type'] },
    ]);
    expect(createEventChecker().accept(ev(0, 'compaction/start', {}, { ignorable: true }))).toEqual([]);
  });

  it('allows surfaceOp only on surface events, pointing at earlier seqs', () => {
    const log = completedTurn(new CodecLog(), 1);
    const checker = acceptAll(log.events);
    const next = checker.nextSeq;
    const replacement = { message: logUserMessage('summary', 'summary of turn 1') };
    expect(checker.accept(ev(next, 'session/title', { title: 'x' }, { surfaceOp: { op: 'replace', start: 1, end: 2 } }))).toMatchObject([
      { path: ['events', next, 'surfaceOp'] },
    ]);
    expect(checker.accept(ev(next, 'user/message', replacement, { surfaceOp: { op: 'replace', start: 3, end: next } }))).toMatchObject([
      { path: ['events', next, 'surfaceOp'] },
    ]);
    expect(checker.accept(ev(next, 'user/message', replacement, { surfaceOp: { op: 'replace', start: 3, end: 1 } }))).toMatchObject([
      { path: ['events', next, 'surfaceOp'] },
    ]);
    // A replacing user/message may stand between turns (a manual compaction); a plain one may not.
    expect(checker.accept(ev(next, 'user/message', replacement))).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
    expect(checker.accept(ev(next, 'user/message', replacement, { surfaceOp: { op: 'replace', start: 1, end: next - 1 } }))).toEqual([]);
  });

  it('lets session events, queued input and plugin events stand between and inside turns', () => {
    const log = new CodecLog()
      .title('a')
      .add('session/config', { tools: ['read'], cwd: '/tmp', model: 'keyless' })
      .queued('in1', 'hi')
      .add('compaction/start', { note: 'plugin' }, { ignorable: true })
      .endSeed()
      .turnStart(1)
      .title('b')
      .queued('in2', 'more')
      .user('hi', 'in1')
      .stepStart(1, 1)
      .add('compaction/end', {}, { ignorable: true })
      .assistant(1, 1, 'done')
      .stepEnd(1, 1)
      .turnEnd(1);
    acceptAll(log.events);
  });

  describe('turns and steps', () => {
    it('numbers turns without gaps and refuses a turn inside a turn', () => {
      const log = completedTurn(new CodecLog(), 1).turnStart(2);
      const checker = acceptAll(log.events);
      expect(checker.accept(ev(checker.nextSeq, 'turn/start', { turn: 3 }))).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
      const third = createEventChecker();
      for (const event of completedTurn(new CodecLog(), 1).events) third.accept(event);
      expect(third.accept(ev(third.nextSeq, 'turn/start', { turn: 3 }))[0]?.message).toContain('expected turn 2');
    });

    it('refuses a turn/end while a step is open or for another turn', () => {
      const checker = acceptAll(new CodecLog().turnStart(1).stepStart(1, 1).events);
      expect(checker.accept(ev(2, 'turn/end', { turn: 1, reason: { kind: 'completed' } }))[0]?.message).toContain('no open step');
      expect(checker.accept(ev(2, 'step/end', { turn: 1, step: 1 }))).toEqual([]);
      expect(checker.accept(ev(3, 'turn/end', { turn: 2, reason: { kind: 'completed' } }))).toMatchObject([
        { code: 'INVALID_RELATIONSHIP' },
      ]);
      expect(checker.accept(ev(3, 'turn/end', { turn: 1, reason: { kind: 'error', error: { message: 'boom', code: 'MODEL' } } }))).toEqual(
        [],
      );
      expect(checker.accept(ev(4, 'turn/end', { turn: 1, reason: { kind: 'completed' } }))[0]?.message).toContain('no turn is open');
    });

    it('opens steps only inside a turn, numbered from 1 in each turn', () => {
      expect(createEventChecker().accept(ev(0, 'step/start', { turn: 1, step: 1 }))).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
      const checker = acceptAll(new CodecLog().turnStart(1).stepStart(1, 1).stepEnd(1, 1).events);
      expect(checker.accept(ev(3, 'step/start', { turn: 1, step: 3 }))[0]?.message).toContain('expected step 2');
      expect(checker.accept(ev(3, 'step/start', { turn: 1, step: 2 }))).toEqual([]);
      expect(checker.accept(ev(4, 'step/start', { turn: 1, step: 3 }))[0]?.message).toContain('no open step');
      const next = completedTurn(new CodecLog(), 1).turnStart(2);
      acceptAll(next.stepStart(2, 1).events);
    });

    it('requires assistant messages, calls and results to name the open turn and step', () => {
      const checker = acceptAll(new CodecLog().turnStart(1).stepStart(1, 1).events);
      const message = { id: 'a', role: 'assistant', content: [] };
      expect(checker.accept(ev(2, 'assistant/message', { turn: 1, step: 2, message }))).toMatchObject([
        { path: ['events', 2, 'data', 'step'] },
      ]);
      expect(checker.accept(ev(2, 'assistant/message', { turn: 2, step: 1, message }))).toMatchObject([
        { path: ['events', 2, 'data', 'turn'] },
      ]);
      expect(checker.accept(ev(2, 'assistant/message', { turn: 1, step: 1, message }))).toEqual([]);
      expect(createEventChecker().accept(ev(0, 'user/message', { message: logUserMessage('u', 'x') }))).toMatchObject([
        { code: 'INVALID_RELATIONSHIP' },
      ]);
    });
  });

  describe('calls and results', () => {
    it('accepts a call declared by the step, then its result, once', () => {
      const log = openStep().result(1, 1, 'c1');
      const checker = acceptAll(log.events);
      const again = new CodecLog(log.events).result(1, 1, 'c1').events.at(-1);
      expect(checker.accept(again)[0]?.message).toContain('already answered');
    });

    it('refuses a tool/call for a call the step did not declare', () => {
      const checker = acceptAll(openStep().events);
      const call = new CodecLog(openStep().events).call(1, 1, 'c9').events.at(-1);
      expect(checker.accept(call)).toMatchObject([{ code: 'INVALID_RELATIONSHIP', path: ['events', 5, 'data', 'callId'] }]);
    });

    it('refuses a second tool/call for the same call', () => {
      const checker = acceptAll(openStep().events);
      expect(checker.accept(new CodecLog(openStep().events).call(1, 1, 'c1').events.at(-1))[0]?.message).toContain(
        'already has a tool/call',
      );
    });

    it('refuses a real result for a call that has no tool/call', () => {
      const checker = acceptAll(openStep().events);
      expect(checker.accept(new CodecLog(openStep().events).result(1, 1, 'c2').events.at(-1))[0]?.message).toContain('no tool/call');
    });

    it('refuses a result for a call of an earlier step', () => {
      const log = openStep().result(1, 1, 'c1').stepEnd(1, 1).stepStart(1, 2);
      const checker = acceptAll(log.events);
      expect(checker.accept(new CodecLog(log.events).result(1, 2, 'c2').events.at(-1))).toMatchObject([{ code: 'INVALID_RELATIONSHIP' }]);
    });

    it('allows a call left without a result when its step closes (a historical failure)', () => {
      acceptAll(openStep().stepEnd(1, 1).turnEnd(1, 'cancelled').turnStart(2).events);
    });

    it('refuses a call declared twice in one step', () => {
      const log = new CodecLog().turnStart(1).stepStart(1, 1);
      const checker = acceptAll(log.events);
      expect(checker.accept(new CodecLog(log.events).assistant(1, 1, '', ['c1', 'c1']).events.at(-1))[0]?.message).toContain(
        'declared twice',
      );
    });
  });

  describe('synthetic results', () => {
    for (const cause of ['interrupted', 'forked'] as const) {
      it(`admits the canonical ${cause} closers: not-started without a tool/call, outcome-unknown with one`, () => {
        const log = openStep().synthetic(cause, 1, 1, 'c1', true).synthetic(cause, 1, 1, 'c2', false).stepEnd(1, 1).turnEnd(1, cause);
        acceptAll(log.events);
      });

      it(`admits ${cause} started results narrowed by any declared effect`, () => {
        for (const effect of ['read-only', 'idempotent', 'side-effect', 'unknown'] as const) {
          acceptAll(openStep().synthetic(cause, 1, 1, 'c1', true, effect).events);
        }
      });
    }

    /** The not-started result for c2 at seq 5, with `change` applied to it. */
    function notStarted(
      cause: 'interrupted' | 'forked',
      change: (data: { message: Record<string, unknown>; error: Record<string, unknown> }) => void,
    ): unknown {
      const data = {
        turn: 1,
        step: 1,
        message: { ...syntheticResultMessage(cause, { callId: 'c2', started: false }, 5) } as Record<string, unknown>,
        error: syntheticResultError(false) as Record<string, unknown>,
      };
      change(data);
      return ev(5, 'tool/result', data);
    }

    for (const cause of ['interrupted', 'forked'] as const) {
      it(`rejects malformed ${cause} not-started results`, () => {
        const malformed: [string, (data: { message: Record<string, unknown>; error: Record<string, unknown> }) => void, string][] = [
          [
            'wrong seq in the id',
            (d) => {
              d.message.id = `${cause}-tool-result-c2-4`;
            },
            'id',
          ],
          [
            'wrong call in the id',
            (d) => {
              d.message.id = `${cause}-tool-result-c1-5`;
            },
            'id',
          ],
          [
            'unprefixed id',
            (d) => {
              d.message.id = 'tool-result-c2-5';
            },
            'id',
          ],
          [
            'altered wording',
            (d) => {
              d.message.content = [{ type: 'text', text: 'The call did not run.' }];
            },
            'content',
          ],
          [
            'extra block',
            (d) => {
              d.message.content = [...(d.message.content as unknown[]), { type: 'text', text: 'more' }];
            },
            'content',
          ],
          [
            'wrong error name',
            (d) => {
              d.error = { name: 'ToolError', code: 'TOOL_NOT_STARTED' };
            },
            'error',
          ],
          [
            'outcome-unknown error',
            (d) => {
              d.error = { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' };
            },
            'callId',
          ],
          [
            'no error',
            (d) => {
              delete (d as { error?: unknown }).error;
            },
            'callId',
          ],
          [
            'isError false',
            (d) => {
              d.message.isError = false;
            },
            'isError',
          ],
        ];
        for (const [what, change, field] of malformed) {
          const checker = acceptAll(openStep().events);
          const issues = checker.accept(notStarted(cause, change));
          expect(issues.length, what).toBeGreaterThan(0);
          expect(
            issues.map((issue) => issue.path.at(-1)),
            what,
          ).toContain(field);
          expect(checker.nextSeq, what).toBe(5);
        }
      });

      it(`rejects a ${cause} not-started result for an undeclared call`, () => {
        const checker = acceptAll(openStep().events);
        const data = {
          turn: 1,
          step: 1,
          message: syntheticResultMessage(cause, { callId: 'c7', started: false }, 5),
          error: syntheticResultError(false),
        };
        expect(checker.accept(ev(5, 'tool/result', data))[0]?.message).toContain('not declared');
      });

      it(`rejects a ${cause} not-started result for a call that has a tool/call`, () => {
        const checker = acceptAll(openStep().events);
        const data = {
          turn: 1,
          step: 1,
          message: syntheticResultMessage(cause, { callId: 'c1', started: false }, 5),
          error: syntheticResultError(false),
        };
        expect(checker.accept(ev(5, 'tool/result', data))[0]?.message).toContain('has a tool/call');
      });
    }

    it('rejects forked wording under an interrupted id and interrupted wording under a forked id', () => {
      const forkedText = syntheticResultMessage('forked', { callId: 'c2', started: false }, 5).content;
      const interruptedText = syntheticResultMessage('interrupted', { callId: 'c2', started: false }, 5).content;
      expect(
        acceptAll(openStep().events).accept(
          notStarted('interrupted', (d) => {
            d.message.content = forkedText;
          }),
        ),
      ).not.toEqual([]);
      const issues = acceptAll(openStep().events).accept(
        notStarted('forked', (d) => {
          d.message.content = interruptedText;
        }),
      );
      expect(issues).not.toEqual([]);
      expect(issues[0]?.message).toContain('forked');
    });
  });

  describe('reasoning blocks (V5)', () => {
    const reasoning = { type: 'reasoning', text: 'Check the log first.', providerData: { signature: 'EqQB' } };
    const assistant = (content: unknown[]) => ({ turn: 1, step: 1, message: { id: 'a1', role: 'assistant', content } });
    const stepOpen = () => acceptAll(new CodecLog().turnStart(1).user('hi').stepStart(1, 1).events);

    it('accepts reasoning in an assistant message, hidden text and provider data included, and its calls still declare', () => {
      const checker = stepOpen();
      const call = { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' };
      expect(checker.accept(ev(3, 'assistant/message', assistant([reasoning, { type: 'reasoning', text: '' }, call])))).toEqual([]);
      expect(
        checker.accept(ev(4, 'tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}', effect: 'read-only' })),
      ).toEqual([]);
    });

    it('refuses reasoning outside assistant messages and malformed reasoning blocks', () => {
      expect(stepOpen().accept(ev(3, 'assistant/message', assistant([{ type: 'reasoning' }])))).toMatchObject([{ code: 'INVALID_EVENT' }]);
      expect(stepOpen().accept(ev(3, 'assistant/message', assistant([{ ...reasoning, providerData: 'sig' }])))).toMatchObject([
        { code: 'INVALID_EVENT', path: ['events', 3, 'data', 'message', 'content', 0, 'providerData'] },
      ]);
      expect(stepOpen().accept(ev(3, 'assistant/message', assistant([{ ...reasoning, extra: 1 }])))).toMatchObject([
        { code: 'INVALID_EVENT' },
      ]);
      const user = { message: { id: 'u', role: 'user', content: [reasoning] } };
      expect(acceptAll(new CodecLog().turnStart(1).events).accept(ev(1, 'user/message', user))).toMatchObject([
        { code: 'INVALID_EVENT', path: ['events', 1, 'data', 'message', 'content', 0, 'type'] },
      ]);
    });
  });
});

describe('EventChecker.advanceThrough', () => {
  it('leaves the checker exactly where advancing event by event does, for every prefix of every log (property)', () => {
    fc.assert(
      fc.property(logPlan, fc.nat(), (plan, pick) => {
        const events = renderLog(plan, CURRENT_FORMAT_VERSION).events as SessionEvent[];
        const count = pick % (events.length + 1);
        const fast = createEventChecker();
        fast.advanceThrough(events, count);
        const slow = createEventChecker();
        for (const event of events.slice(0, count)) slow.advance(event);
        expect(fast.nextSeq).toBe(slow.nextSeq);
        // Every event of the log, renumbered to the next seq, is judged the same by both: the
        // relationships (open turn, step, declared and started calls) were carried over exactly.
        for (const candidate of events) {
          const next = { ...candidate, seq: count };
          expect(fast.accept(next)).toEqual(slow.accept(next));
          expect(fast.nextSeq).toBe(slow.nextSeq);
        }
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it('refuses a count outside the events and a prefix that does not start at nextSeq', () => {
    const log = completedTurn(new CodecLog(), 1);
    expect(() => {
      createEventChecker().advanceThrough(log.events, log.events.length + 1);
    }).toThrow(RangeError);
    const checker = createEventChecker();
    checker.advanceThrough(log.events, 2);
    expect(() => {
      checker.advanceThrough(log.events, 1);
    }).toThrow(/start at seq 2/);
  });
});

describe('EventChecker.advancePast', () => {
  it('given only the latest turn of a prefix, leaves the checker where advancing event by event does (property)', () => {
    fc.assert(
      fc.property(logPlan, fc.nat(), (plan, pick) => {
        const events = renderLog(plan, CURRENT_FORMAT_VERSION).events as SessionEvent[];
        const count = pick % (events.length + 1);
        const prefix = events.slice(0, count);
        const start = prefix.findLastIndex((event) => event.type === 'turn/start');
        const fast = createEventChecker();
        fast.advancePast(count, start === -1 ? [] : prefix.slice(start));
        const slow = createEventChecker();
        for (const event of prefix) slow.advance(event);
        expect(fast.nextSeq).toBe(slow.nextSeq);
        for (const candidate of events) {
          const next = { ...candidate, seq: count };
          expect(fast.accept(next)).toEqual(slow.accept(next));
          expect(fast.nextSeq).toBe(slow.nextSeq);
        }
      }),
      { numRuns: 300, seed: 20261202 },
    );
  });

  it('refuses a latest turn that does not begin with the turn/start at its place in the prefix', () => {
    const log = completedTurn(new CodecLog(), 1);
    const events = log.events;
    // The turn starts at seq 0: handing it over as if it ended one event later is a caller's bug.
    expect(() => {
      createEventChecker().advancePast(events.length + 1, events);
    }).toThrow(/turn\/start at seq 1/);
    expect(() => {
      createEventChecker().advancePast(events.length, events.slice(1));
    }).toThrow(/received/);
    expect(() => {
      createEventChecker().advancePast(1, events);
    }).toThrow(RangeError);
  });
});
