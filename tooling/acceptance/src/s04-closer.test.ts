/**
 * SPEC §4 — closing an open tail. The closer is internal; its output is observed through both users:
 * `buildForkSeed` (cause `forked`) and `SessionStore.open` crash repair (cause `interrupted`).
 */
import { describe, expect, it } from 'vitest';
import { validate, type JsonValue, type SessionEvent } from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { completedTurnRows, type LogJsonRow, logRow } from '@dsh/test-utils';
import { appendAll, deepFreeze, toEvents } from './support.js';

type Cause = 'forked' | 'interrupted';
type Closed = { stored: readonly SessionEvent[]; closers: SessionEvent[] };

/** The closers `cause` adds after `specs`: through a fork at the last event, or a crash repair on open. */
async function close(cause: Cause, specs: LogJsonRow[]): Promise<Closed> {
  if (cause === 'forked') {
    const stored = toEvents(specs);
    const seed = buildForkSeed(stored, stored.length - 1);
    expect(seed[stored.length]).toEqual({
      seq: stored.length,
      type: 'session/end-seed',
      time: stored.at(-1)!.time,
      data: { inherited: true },
    });
    return { stored, closers: seed.slice(stored.length + 1) };
  }
  const store = createMemoryStore();
  try {
    const crashed = await store.create({ id: 'crashed' });
    appendAll(crashed, specs);
    await crashed.close();
    const stored = (await store.inspect('crashed')).events;
    const reopened = await store.open('crashed');
    const events = reopened.events;
    expect(events.slice(0, stored.length)).toEqual(stored);
    const last = events.at(-1)!;
    expect(last.type).toBe('session/end-seed');
    expect(last.data).toEqual({});
    await reopened.close();
    return { stored, closers: events.slice(stored.length, -1) };
  } finally {
    await store.close();
  }
}

const data = (event: SessionEvent | undefined) => event?.data as Record<string, JsonValue>;
const resultMessage = (event: SessionEvent) =>
  data(event).message as { id: string; role: string; callId: string; content: { type: string; text: string }[]; isError: boolean };

/**
 * Turn 1: complete. Turn 2: step 1 closed with call `x` started and never answered; step 2 open with
 * calls a, b, c, d declared; c then a started, a answered; a plugin bracket opened and left open.
 */
const SCENARIO: LogJsonRow[] = [
  ...completedTurnRows(1, ['t1']),
  logRow.turnStart(2),
  logRow.user('u2', 'go'),
  logRow.stepStart(2, 1),
  logRow.assistant(2, 1, '', ['x']),
  logRow.call(2, 1, 'x', 'side-effect'),
  logRow.stepEnd(2, 1),
  logRow.stepStart(2, 2),
  logRow.assistant(2, 2, 'several', ['a', 'b', 'c', 'd']),
  logRow.call(2, 2, 'c', 'side-effect'),
  logRow.call(2, 2, 'a', 'read-only'),
  logRow.result(2, 2, 'a'),
  logRow.plugin('compaction/start', { reason: 'manual' }),
];

describe.each(['forked', 'interrupted'] as const)('§4 closeOpenTail with cause %s', (cause) => {
  it(`§4 (${cause}) one tool/result per pending call of the open step, in declaration order, then step/end, then turn/end {kind}`, async () => {
    const { stored, closers } = await close(cause, SCENARIO);
    expect(closers.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'tool/result', 'step/end', 'turn/end']);
    expect(closers.slice(0, 3).map((event) => resultMessage(event).callId)).toEqual(['b', 'c', 'd']);
    expect(closers[3]!.data).toEqual({ turn: 2, step: 2 });
    expect(closers[4]!.data).toEqual({ turn: 2, reason: { kind: cause } });
    // seq continues from the last stored event; with a fork the inherited marker sits in between.
    const first = stored.length + (cause === 'forked' ? 1 : 0);
    closers.forEach((event, index) => {
      expect(event.seq).toBe(first + index);
    });
  });

  it(`§4 (${cause}) result ids are "${cause}-tool-result-<callId>-<seq>" and errors say started or not started`, async () => {
    const { closers } = await close(cause, SCENARIO);
    const [b, c, d] = closers;
    for (const [event, callId, started] of [
      [b!, 'b', false],
      [c!, 'c', true],
      [d!, 'd', false],
    ] as const) {
      const message = resultMessage(event);
      expect(message.id).toBe(`${cause}-tool-result-${callId}-${event.seq}`);
      expect(Object.keys(message).sort()).toEqual(['callId', 'content', 'id', 'isError', 'role']);
      expect(message.role).toBe('tool');
      expect(message.callId).toBe(callId);
      expect(message.isError).toBe(true);
      expect(message.content).toHaveLength(1);
      expect(message.content[0]!.type).toBe('text');
      expect(message.content[0]!.text.length).toBeGreaterThan(0);
      expect(data(event).turn).toBe(2);
      expect(data(event).step).toBe(2);
      expect(data(event).error).toEqual(
        started
          ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
          : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' },
      );
      expect(Object.keys(data(event)).sort()).toEqual(['error', 'message', 'step', 'turn']);
    }
  });

  it(`§4 (${cause}) every closer has the exact envelope and the time of the last event`, async () => {
    const { stored, closers } = await close(cause, SCENARIO);
    for (const event of closers) {
      expect(Object.keys(event).sort()).toEqual(['data', 'seq', 'time', 'type']);
      expect(event.time).toBe(stored.at(-1)!.time);
    }
  });

  it(`§4 (${cause}) closed steps are never repaired and plugin brackets stay open`, async () => {
    const { closers } = await close(cause, SCENARIO);
    const answered = closers.filter((event) => event.type === 'tool/result').map((event) => resultMessage(event).callId);
    expect(answered).not.toContain('x');
    expect(answered).not.toContain('a');
    expect(closers.some((event) => event.type.startsWith('compaction/'))).toBe(false);
  });

  it(`§4 (${cause}) earlier closed turns stay as they are, including a failed one with a missing result`, async () => {
    const failedTurn: LogJsonRow[] = [
      logRow.turnStart(1),
      logRow.stepStart(1, 1),
      logRow.assistant(1, 1, '', ['lost']),
      logRow.call(1, 1, 'lost', 'side-effect'),
      logRow.stepEnd(1, 1),
      logRow.turnEnd(1, { kind: 'error', error: { message: 'tool crashed', code: 'E' } }),
    ];
    const { stored, closers } = await close(cause, [...failedTurn, logRow.turnStart(2), logRow.user('u', 'hi')]);
    expect(closers.map((event) => event.type)).toEqual(['turn/end']);
    expect(closers[0]!.data).toEqual({ turn: 2, reason: { kind: cause } });
    expect(stored.filter((event) => event.type === 'tool/result')).toEqual([]);
  });

  it(`§4 (${cause}) an open turn between steps closes with turn/end only`, async () => {
    const { closers } = await close(cause, [
      logRow.turnStart(1),
      logRow.user('u', 'q'),
      logRow.stepStart(1, 1),
      logRow.assistant(1, 1, 'hi'),
      logRow.stepEnd(1, 1),
    ]);
    expect(closers.map((event) => [event.type, event.data])).toEqual([['turn/end', { turn: 1, reason: { kind: cause } }]]);
  });

  it(`§4 (${cause}) an open step without an assistant message closes with step/end and turn/end`, async () => {
    const { closers } = await close(cause, [logRow.turnStart(1), logRow.user('u', 'q'), logRow.stepStart(1, 1)]);
    expect(closers.map((event) => [event.type, event.data])).toEqual([
      ['step/end', { turn: 1, step: 1 }],
      ['turn/end', { turn: 1, reason: { kind: cause } }],
    ]);
  });

  it(`§4 (${cause}) tool/result removes a pending call even when its tool/call came in another order`, async () => {
    const { closers } = await close(cause, [
      logRow.turnStart(1),
      logRow.stepStart(1, 1),
      logRow.assistant(1, 1, '', ['p', 'q', 'r']),
      logRow.call(1, 1, 'r'),
      logRow.call(1, 1, 'q'),
      logRow.result(1, 1, 'r'),
      logRow.call(1, 1, 'p'),
      logRow.result(1, 1, 'p'),
    ]);
    expect(closers.map((event) => event.type)).toEqual(['tool/result', 'step/end', 'turn/end']);
    expect(resultMessage(closers[0]!).callId).toBe('q');
    expect(data(closers[0]).error).toEqual({ name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' });
  });

  it(`§4 (${cause}) nothing is emitted when no turn is open`, async () => {
    const { closers } = await close(cause, [...completedTurnRows(1, ['a']), logRow.title('after'), logRow.plugin('acme/open-bracket')]);
    expect(closers).toEqual([]);
  });

  it(`§4 (${cause}) the closed log is valid V4`, async () => {
    const { stored, closers } = await close(cause, SCENARIO);
    const events = cause === 'forked' ? buildForkSeed(stored, stored.length - 1) : [...stored, ...closers];
    const header =
      cause === 'forked'
        ? {
            format: 'dsh-session',
            version: 4,
            id: 'c',
            createdAt: 0,
            parentSession: 'p',
            forkCut: stored.length - 1,
            inheritedEventCount: stored.length,
          }
        : { format: 'dsh-session', version: 4, id: 'c', createdAt: 0, inheritedEventCount: 0 };
    expect(validate(4, { header, events })).toEqual([]);
  });
});

describe('§4 purity', () => {
  it('§4 the output is a pure function of (events, cause): same input, same output, input untouched', () => {
    const events = deepFreeze(toEvents(SCENARIO));
    const snapshot = JSON.stringify(events);
    const first = buildForkSeed(events, events.length - 1);
    const second = buildForkSeed(events, events.length - 1);
    expect(second).toEqual(first);
    expect(JSON.stringify(events)).toBe(snapshot);
  });

  it('§4 crash repair of two stored logs that differ only in times gives the same closers (apart from their time)', async () => {
    const results: JsonValue[] = [];
    for (let round = 0; round < 2; round += 1) {
      const { closers } = await close('interrupted', SCENARIO);
      results.push(closers.map(({ time: _time, ...rest }) => rest));
    }
    expect(results[1]).toEqual(results[0]);
  });
});

/** Every synthetic result text the closers can produce, per cause, started or not, for each declared effect. */
async function wordings(cause: Cause): Promise<{ started: boolean; effect: string; text: string }[]> {
  const effects = ['read-only', 'idempotent', 'side-effect', 'unknown'];
  const specs: LogJsonRow[] = [
    logRow.turnStart(1),
    logRow.stepStart(1, 1),
    logRow.assistant(1, 1, '', [...effects.map((effect) => `s-${effect}`), 'not-started']),
  ];
  for (const effect of effects) specs.push(logRow.call(1, 1, `s-${effect}`, effect));
  const { closers } = await close(cause, specs);
  return closers
    .filter((event) => event.type === 'tool/result')
    .map((event) => {
      const message = resultMessage(event);
      const started = message.callId !== 'not-started';
      return { started, effect: started ? message.callId.slice(2) : 'none', text: message.content[0]!.text };
    });
}

describe('§4 wording', () => {
  it('§4 forked wording never says the parent was interrupted or crashed', async () => {
    const texts = await wordings('forked');
    expect(texts).toHaveLength(5);
    for (const { text } of texts) expect(text).not.toMatch(/interrupt|crash/i);
  });

  it('§4 forked, not started: forked before the call started, no inherited result, parent may have run it, read-only/idempotent may run, side effects: check the parent first', async () => {
    const [entry] = (await wordings('forked')).filter((item) => !item.started);
    const text = entry!.text;
    expect(text).toMatch(/fork/i);
    expect(text).toMatch(/before/i);
    expect(text).toMatch(/no result/i);
    expect(text).toMatch(/parent may have (executed|run)/i);
    expect(text).toMatch(/read-only/i);
    expect(text).toMatch(/idempotent/i);
    expect(text).toMatch(/side effect/i);
  });

  it('§4 forked, started: started in the parent, result missing, parent may have completed or still be running it, outcome unknown, no blind retry', async () => {
    const started = (await wordings('forked')).filter((item) => item.started);
    for (const { text } of started) {
      expect(text).toMatch(/fork/i);
      expect(text).toMatch(/started in the parent/i);
      expect(text).toMatch(/missing/i);
      expect(text).toMatch(/still be running|still running/i);
      expect(text).toMatch(/unknown/i);
    }
    const unknown = started.find((item) => item.effect === 'unknown')!.text;
    expect(unknown).toMatch(/read-only/i);
    expect(unknown).toMatch(/idempotent/i);
    expect(unknown).toMatch(/verify the external state/i);
    expect(unknown).toMatch(/not retry .*blindly/i);
  });

  it('§4 interrupted, not started: interrupted before the call started, it did not run, it may be retried', async () => {
    const [entry] = (await wordings('interrupted')).filter((item) => !item.started);
    expect(entry!.text).toMatch(/interrupted before/i);
    expect(entry!.text).toMatch(/did not run/i);
    expect(entry!.text).toMatch(/again|retr/i);
  });

  it('§4 interrupted, started: interrupted after the call started, no result, outcome unknown, verify side effects, no blind retry', async () => {
    const started = (await wordings('interrupted')).filter((item) => item.started);
    for (const { text } of started) {
      expect(text).toMatch(/interrupted after/i);
      expect(text).toMatch(/no result/i);
      expect(text).toMatch(/unknown/i);
    }
    const unknown = started.find((item) => item.effect === 'unknown')!.text;
    expect(unknown).toMatch(/read-only/i);
    expect(unknown).toMatch(/idempotent/i);
    expect(unknown).toMatch(/verify the external state/i);
    expect(unknown).toMatch(/ask the user/i);
    expect(unknown).toMatch(/not retry .*blindly/i);
    const sideEffect = started.find((item) => item.effect === 'side-effect')!.text;
    expect(sideEffect).toMatch(/verify/i);
  });
});
