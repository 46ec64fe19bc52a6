// closeOpenTail is internal (not exported); its unit tests import the module directly.
import { describe, expect, it } from 'vitest';
import { syntheticResultText, validate, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { LogBuilder } from '@dsh/test-utils';
import { closeOpenTail } from './close-open-tail.js';

const header: SessionHeader = { format: 'dsh-session', version: 7, id: 's', createdAt: 0, inheritedEventCount: 0 };
const asEvents = (builder: LogBuilder): SessionEvent[] => builder.events;

function resultOf(event: SessionEvent | undefined) {
  return event?.data as {
    turn: number;
    step: number;
    message: { id: string; callId: string; isError: boolean; content: { type: string; text: string }[] };
    error: { name: string; code: string };
  };
}

describe('closeOpenTail', () => {
  it('returns nothing for an empty log or a log without an open turn', () => {
    expect(closeOpenTail([], 'interrupted')).toEqual([]);
    const closed = new LogBuilder()
      .endSeed()
      .title('t')
      .turn({ steps: [{ calls: [{ run: 'answered' }] }] })
      .queue('later');
    expect(closeOpenTail(asEvents(closed), 'interrupted')).toEqual([]);
    expect(closeOpenTail(asEvents(closed), 'forked')).toEqual([]);
  });

  it('closes an open turn without a step with turn/end of the cause, at the last event time', () => {
    const log = new LogBuilder().endSeed().turnStart().user('hi');
    const closers = closeOpenTail(asEvents(log), 'interrupted');
    expect(closers).toEqual([{ seq: 3, type: 'turn/end', time: log.events[2]!.time, data: { turn: 1, reason: { kind: 'interrupted' } } }]);
  });

  it('closes pending calls in declaration order: started → TOOL_OUTCOME_UNKNOWN, never started → TOOL_NOT_STARTED', () => {
    const log = new LogBuilder().endSeed().turnStart().user('go').stepStart();
    log.assistant('three calls', [
      { id: 'a', name: 'read' },
      { id: 'b', name: 'write' },
      { id: 'c', name: 'search' },
      { id: 'd', name: 'shell' },
    ]);
    log.toolCall('c', { effect: 'side-effect' }).toolCall('a', { effect: 'read-only' }).toolResult('a', 'done').toolCall('d');
    const last = log.events.at(-1)!;
    const closers = closeOpenTail(asEvents(log), 'interrupted');
    expect(closers.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'tool/result', 'step/end', 'turn/end']);
    expect(closers.map((event) => event.seq)).toEqual([last.seq + 1, last.seq + 2, last.seq + 3, last.seq + 4, last.seq + 5]);
    expect(closers.every((event) => event.time === last.time)).toBe(true);
    const [b, c, d] = closers.map(resultOf);
    expect(b!.message.callId).toBe('b');
    expect(b!.message.id).toBe(`interrupted-tool-result-b-${last.seq + 1}`);
    expect(b!.error).toEqual({ name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' });
    expect(b!.message.content).toEqual([{ type: 'text', text: syntheticResultText('interrupted', false) }]);
    expect(c!.message.id).toBe(`interrupted-tool-result-c-${last.seq + 2}`);
    expect(c!.error).toEqual({ name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' });
    // Advice is narrowed by the started call's declared effect.
    expect(c!.message.content[0]!.text).toBe(syntheticResultText('interrupted', true, 'side-effect'));
    expect(d!.message.content[0]!.text).toBe(syntheticResultText('interrupted', true, 'unknown'));
    expect([b, c, d].every((result) => result!.message.isError && result!.turn === 1 && result!.step === 1)).toBe(true);
    expect(closers[3]!.data).toEqual({ turn: 1, step: 1 });
    expect(closers[4]!.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } });
  });

  it('uses fork ids and fork wording for the forked cause, never mentioning an interruption or crash', () => {
    const log = new LogBuilder().turn({
      steps: [{ calls: [{ run: 'started', effect: 'idempotent' }, { run: 'declared' }], open: true }],
      end: 'open',
    });
    const closers = closeOpenTail(asEvents(log), 'forked');
    const [started, declared] = closers.map(resultOf);
    expect(started!.message.id).toMatch(/^forked-tool-result-call-\d+-\d+$/);
    expect(started!.message.content[0]!.text).toBe(syntheticResultText('forked', true, 'idempotent'));
    expect(declared!.message.content[0]!.text).toBe(syntheticResultText('forked', false));
    for (const result of [started, declared]) expect(result!.message.content[0]!.text).not.toMatch(/interrupt|crash/i);
    expect(closers.at(-1)!.data).toEqual({ turn: 1, reason: { kind: 'forked' } });
  });

  it('never repairs a closed failed step: only the open step’s calls are closed', () => {
    const log = new LogBuilder().turn({
      steps: [{ calls: [{ run: 'started' }, { run: 'declared' }] }, { calls: [{ run: 'declared' }], open: true }],
      end: 'open',
    });
    const closers = closeOpenTail(asEvents(log), 'interrupted');
    expect(closers.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end']);
    expect(resultOf(closers[0]).step).toBe(2);
    // A turn whose failed step is closed but which has no open step gets only its turn/end.
    const between = new LogBuilder().turn({ steps: [{ calls: [{ run: 'started' }] }], end: 'open' });
    expect(closeOpenTail(asEvents(between), 'interrupted').map((event) => event.type)).toEqual(['turn/end']);
  });

  it('leaves closed turns and plugin brackets alone', () => {
    const log = new LogBuilder()
      .turn({ steps: [{ calls: [{ run: 'declared' }] }], end: { kind: 'cancelled' } })
      .plugin('compaction/start')
      .turnStart()
      .user('again');
    const closers = closeOpenTail(asEvents(log), 'interrupted');
    expect(closers.map((event) => event.type)).toEqual(['turn/end']);
    expect(closers[0]!.data).toEqual({ turn: 2, reason: { kind: 'interrupted' } });
  });

  it('is pure and deterministic: same output twice, input untouched, closed log validates as V7', () => {
    const log = new LogBuilder().endSeed().turn({ steps: [{ calls: [{ run: 'started' }, { run: 'declared' }], open: true }], end: 'open' });
    const events = structuredClone(log.events) as SessionEvent[];
    const frozen = Object.freeze(events.map((event) => Object.freeze(event)));
    const first = closeOpenTail(frozen, 'interrupted');
    const second = closeOpenTail(frozen, 'interrupted');
    expect(second).toEqual(first);
    expect(frozen).toEqual(log.events);
    expect(validate(7, { header, events: [...frozen, ...first] })).toEqual([]);
    expect(closeOpenTail([...frozen, ...first], 'interrupted')).toEqual([]);
  });

  it('carries reasoning blocks through unchanged: the closers are those of the same log without them', () => {
    const withCalls = () => new LogBuilder().endSeed().turnStart().user('go').stepStart();
    const plain = withCalls()
      .assistant('two calls', [
        { id: 'a', name: 'read' },
        { id: 'b', name: 'shell' },
      ])
      .toolCall('a');
    const thinking = withCalls()
      .push('assistant/message', {
        turn: 1,
        step: 1,
        message: {
          id: 'assistant-4',
          role: 'assistant',
          content: [
            { type: 'reasoning', text: 'Read first, then run.', providerData: { signature: 'sig' } },
            { type: 'text', text: 'two calls' },
            { type: 'tool-call', id: 'a', name: 'read', arguments: '{}' },
            { type: 'reasoning', text: '' },
            { type: 'tool-call', id: 'b', name: 'shell', arguments: '{}' },
          ],
        },
      })
      .toolCall('a');
    const events = asEvents(thinking);
    const before = structuredClone(events);
    for (const cause of ['interrupted', 'forked'] as const) {
      const closers = closeOpenTail(events, cause);
      expect(closers).toEqual(closeOpenTail(asEvents(plain), cause));
      expect(closers.slice(0, 2).map((event) => resultOf(event).message.callId)).toEqual(['a', 'b']);
      expect(validate(7, { header, events: [...events, ...closers] })).toEqual([]);
    }
    expect(events).toEqual(before);
  });
});

describe('closeOpenTail with the workspace at the cut (format V6)', () => {
  const open = () =>
    new LogBuilder()
      .endSeed()
      .turnStart()
      .user('go')
      .stepStart()
      .assistant(undefined, [
        { id: 'w', name: 'write' },
        { id: 'r', name: 'read' },
      ])
      .toolCall('w', { name: 'write', effect: 'side-effect' });

  it('adds the workspace sentence to each forked closer, started and not started, and the log validates as V7', () => {
    const log = asEvents(open());
    const closers = closeOpenTail(log, 'forked', { workspace: 'at-cut' });
    expect(resultOf(closers[0]).message.content).toEqual([
      { type: 'text', text: syntheticResultText('forked', true, 'side-effect', { workspace: 'at-cut' }) },
    ]);
    expect(resultOf(closers[1]).message.content).toEqual([
      { type: 'text', text: syntheticResultText('forked', false, 'unknown', { workspace: 'at-cut' }) },
    ]);
    expect(closers.map((event) => event.type)).toEqual(closeOpenTail(log, 'forked').map((event) => event.type));
    expect(validate(7, { header, events: [...log, ...closers] })).toEqual([]);
    expect(validate(5, { header: { ...header, version: 5 as 6 }, events: [...log, ...closers] })).not.toEqual([]);
  });

  it('leaves the interrupted closer (crash repair) as it was: it never takes a workspace', () => {
    const log = asEvents(open());
    expect(() => closeOpenTail(log, 'interrupted', { workspace: 'at-cut' })).toThrow(RangeError);
    expect(resultOf(closeOpenTail(log, 'interrupted')[0]).message.content).toEqual([
      { type: 'text', text: syntheticResultText('interrupted', true, 'side-effect') },
    ]);
  });
});
