/** SPEC §3 — the V4 event model: envelope, lossless data, surfaceOp, ignorable, core shapes, §3.4 invariants. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, validate, type JsonValue, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { completedTurnRows, type LogJsonRow, logRow } from '@dsh/test-utils';
import { appendAll, headerOf, jsonl, thrown, toEvents, v4Header } from './support.js';

let store: SessionStore;
let session: Session;
beforeEach(async () => {
  store = createMemoryStore();
  session = await store.create({ id: 'events' });
});
afterEach(async () => {
  await store.close();
});

/** Appending `spec` fails with INVALID_EVENT and leaves the log as it was. */
function expectRefused(spec: LogJsonRow): SessionError {
  const before = session.events.length;
  const error = thrown(() => appendAll(session, [spec]));
  if (!SessionError.is(error)) throw new Error(`expected a SessionError, got ${String(error)}`);
  expect(error.code).toBe('INVALID_EVENT');
  expect(session.events.length).toBe(before);
  return error;
}

const ENVELOPE = ['data', 'seq', 'time', 'type'];

/** The one `INVALID_EVENT` issue at `path` (a validator issue names the field the §3.1 rule is about). */
function invalidEventAt(path: (string | number)[]): unknown {
  return expect.objectContaining({ code: 'INVALID_EVENT', path, seq: path[1] });
}

describe('§3.1 envelope', () => {
  it('§3.1 an appended event has exactly the keys seq, type, time, data', () => {
    const event = session.append('session/title', { title: 'hello' });
    expect(Object.keys(event).sort()).toEqual(ENVELOPE);
    for (const stored of session.events) expect(Object.keys(stored).sort()).toEqual(ENVELOPE);
  });

  it('§3.1 seq equals the index in the log, contiguous from 0, and time is an integer', () => {
    appendAll(session, [logRow.title('t'), ...completedTurnRows(1, ['a']), logRow.config({ cwd: '/tmp' })]);
    session.events.forEach((event, index) => {
      expect(event.seq).toBe(index);
      expect(Number.isInteger(event.time)).toBe(true);
    });
  });

  it('§3.1 surfaceOp and ignorable appear on the envelope only when given, ignorable as literal true', () => {
    const turn = appendAll(session, completedTurnRows(1));
    const user = turn[1]!;
    const assistant = turn[3]!;
    expect([user.type, assistant.type]).toEqual(['user/message', 'assistant/message']);
    const replace = session.append(
      'user/message',
      { message: { id: 'sum', role: 'user', content: [{ type: 'text', text: 'summary' }] } },
      {
        surfaceOp: { op: 'replace', start: user.seq, end: assistant.seq },
      },
    );
    expect(Object.keys(replace).sort()).toEqual([...ENVELOPE, 'surfaceOp'].sort());
    expect(replace.surfaceOp).toEqual({ op: 'replace', start: user.seq, end: assistant.seq });
    const plugin = session.append('acme/note', { note: 1 }, { ignorable: true });
    expect(Object.keys(plugin).sort()).toEqual([...ENVELOPE, 'ignorable'].sort());
    expect(plugin.ignorable).toBe(true);
  });

  it('§3.1 the V4 validator refuses an extra envelope key, a missing key, a non-integer time and a seq that is not its index', () => {
    const good = toEvents([logRow.title('t'), logRow.config({ cwd: '/w' })]);
    expect(validate(4, { header: v4Header(), events: good })).toEqual([]);
    const variants: [unknown[], (string | number)[]][] = [
      [
        [good[0], { ...good[1], extra: 1 }],
        ['events', 1, 'extra'],
      ],
      [
        [good[0], { seq: 1, type: 'session/config', time: 1 }],
        ['events', 1, 'data'],
      ],
      [
        [good[0], { ...good[1], time: 1.5 }],
        ['events', 1, 'time'],
      ],
      [
        [good[0], { ...good[1], seq: 2 }],
        ['events', 1, 'seq'],
      ],
      [[{ ...good[0], seq: -1 }], ['events', 0, 'seq']],
    ];
    for (const [events, path] of variants)
      expect(validate(4, { header: v4Header(), events }), JSON.stringify(events)).toEqual([invalidEventAt(path)]);
  });
});

describe('§3.1 lossless JSON data', () => {
  class Point {
    x = 1;
  }
  const sparse: JsonValue[] = [1, 2, 3];
  // eslint-disable-next-line @typescript-eslint/no-array-delete -- a sparse array is the point
  delete sparse[1];
  /** Each lossy value, and where in `data` the validator finds it. */
  const lossy: [string, unknown, (string | number)[]][] = [
    ['NaN', { value: Number.NaN }, ['value']],
    ['Infinity', { value: Number.POSITIVE_INFINITY }, ['value']],
    ['-Infinity', { value: Number.NEGATIVE_INFINITY }, ['value']],
    ['-0', { value: -0 }, ['value']],
    ['undefined property', { value: undefined }, ['value']],
    ['undefined array item', { value: [undefined] }, ['value', 0]],
    ['sparse array', { value: sparse }, ['value']],
    ['class instance', { value: new Point() }, ['value']],
    ['Date', { value: new Date(0) }, ['value']],
    ['Map', { value: new Map() }, ['value']],
  ];

  it.each(lossy)('§3.1 append refuses non-lossless data: %s', (_name, data) => {
    expectRefused(['acme/note', data as JsonValue, { ignorable: true }]);
    expect(session.append('acme/note', { value: 1 }, { ignorable: true }).data).toEqual({ value: 1 });
  });

  it.each(lossy)('§3.1 the V4 validator refuses non-lossless data: %s', (_name, data, at) => {
    const events = [{ seq: 0, type: 'acme/note', time: 1, data, ignorable: true }];
    expect(validate(4, { header: v4Header(), events })).toEqual([invalidEventAt(['events', 0, 'data', ...at])]);
    expect(validate(4, { header: v4Header(), events: [{ ...events[0], data: { value: 0 } }] })).toEqual([]);
  });

  it('§3.1 append stores its own copy of the data (later mutation of the argument changes nothing)', () => {
    const data = { title: 'before' };
    const event = session.append('session/title', data);
    data.title = 'after';
    expect(event.data).toEqual({ title: 'before' });
  });
});

describe('§3.1 surfaceOp only on surface events', () => {
  const op = { op: 'replace' as const, start: 0, end: 0 };
  it.each(['session/title', 'session/config', 'turn/start'])('§3.1 append refuses surfaceOp on the non-surface event %s', (type) => {
    const data: Record<string, JsonValue> = { 'session/title': { title: 't' }, 'session/config': {}, 'turn/start': { turn: 1 } };
    expectRefused([type, data[type]!, { surfaceOp: op }]);
  });

  it('§3.1 the V4 validator refuses surfaceOp on a non-surface event', () => {
    const events = [{ seq: 0, type: 'session/title', time: 1, data: { title: 't' }, surfaceOp: op }];
    // The issue of the rule itself (not only the one about the range this first event cannot replace).
    expect(validate(4, { header: v4Header(), events })).toContainEqual(
      expect.objectContaining({
        code: 'INVALID_EVENT',
        path: ['events', 0, 'surfaceOp'],
        message: expect.stringContaining('only allowed on surface events') as unknown,
      }),
    );
  });

  it('§3.1 surfaceOp must be { op: "replace", start, end }', () => {
    appendAll(session, completedTurnRows(1));
    const [type, data] = logRow.user('x', 'y');
    expectRefused([type, data, { surfaceOp: { op: 'append', start: 1, end: 2 } as never }]);
  });
});

describe('§3.1 ignorable', () => {
  it('§3.1 an unknown type without ignorable is refused by append, the validator and the reader', () => {
    expectRefused(['acme/unknown', {}]);
    const events = [{ seq: 0, type: 'acme/unknown', time: 1, data: {} }];
    expect(validate(4, { header: v4Header(), events })).toEqual([invalidEventAt(['events', 0, 'type'])]);
    const error = thrown(() => decodeJsonl(jsonl(v4Header(), events)));
    expect(CodecError.is(error)).toBe(true);
    expect({ code: error.code, line: CodecError.is(error) ? error.line : undefined }).toEqual({ code: 'INVALID_EVENT', line: 2 });
  });

  it('§3.1 an unknown type with ignorable: true is accepted by append, the validator and the reader', () => {
    expect(session.append('acme/unknown', { x: 1 }, { ignorable: true }).type).toBe('acme/unknown');
    const events = [{ seq: 0, type: 'acme/unknown', time: 1, data: { x: 1 }, ignorable: true }];
    expect(validate(4, { header: v4Header(), events })).toEqual([]);
    expect(() => decodeJsonl(jsonl(v4Header(), events))).not.toThrow();
  });

  it('§3.1 ignorable is optional `true`: the validator refuses ignorable: false', () => {
    const events = [{ seq: 0, type: 'acme/unknown', time: 1, data: {}, ignorable: false }];
    expect(validate(4, { header: v4Header(), events })).toEqual([invalidEventAt(['events', 0, 'ignorable'])]);
  });
});

describe('§3.3 core event types', () => {
  it('§3.3 session/end-seed is written only by the Session constructor and buildForkSeed: append refuses it', () => {
    expectRefused(['session/end-seed', {}]);
    expectRefused(['session/end-seed', { inherited: true }]);
  });

  it('§3.3 turn/end accepts completed, cancelled, error {message, code} and max-steps', () => {
    const reasons: JsonValue[] = [
      { kind: 'completed' },
      { kind: 'cancelled' },
      { kind: 'error', error: { message: 'boom', code: 'E' } },
      { kind: 'max-steps' },
    ];
    reasons.forEach((reason, index) => {
      const turn = index + 1;
      appendAll(session, [logRow.turnStart(turn), logRow.user(`u${turn}`, 'q'), logRow.turnEnd(turn, reason)]);
    });
    expect(
      session.events.filter((event) => event.type === 'turn/end').map((event) => (event.data as { reason: JsonValue }).reason),
    ).toEqual(reasons);
  });

  it('§3.3 turn/end refuses an error reason without its error object, and unknown reason kinds', () => {
    appendAll(session, [logRow.turnStart(1)]);
    expectRefused(logRow.turnEnd(1, { kind: 'error' }));
    expectRefused(logRow.turnEnd(1, { kind: 'aborted' }));
    expectRefused(logRow.turnEnd(1, 'completed'));
  });

  it('§3.3 interrupted and forked turn ends belong to the closers: append refuses them', () => {
    appendAll(session, [logRow.turnStart(1)]);
    expectRefused(logRow.turnEnd(1, { kind: 'interrupted' }));
    expectRefused(logRow.turnEnd(1, { kind: 'forked' }));
  });

  it('§3.3 tool/call.effect is one of read-only, idempotent, side-effect, unknown', () => {
    appendAll(session, [logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a', 'b', 'c', 'd', 'e'])]);
    for (const [callId, effect] of [
      ['a', 'read-only'],
      ['b', 'idempotent'],
      ['c', 'side-effect'],
      ['d', 'unknown'],
    ] as const) {
      expect(session.append('tool/call', logRow.call(1, 1, callId, effect)[1]).type).toBe('tool/call');
    }
    expectRefused(logRow.call(1, 1, 'e', 'dangerous'));
    const { effect: _omitted, ...withoutEffect } = logRow.call(1, 1, 'e')[1] as Record<string, JsonValue>;
    expectRefused(['tool/call', withoutEffect]);
  });

  it('§3.2 messages have their exact shapes: a user/message with a wrong role or a non-array content is refused', () => {
    appendAll(session, [logRow.turnStart(1)]);
    expectRefused(['user/message', { message: { id: 'u', role: 'assistant', content: [] } }]);
    expectRefused(['user/message', { message: { id: 'u', role: 'user', content: 'text' } }]);
    expectRefused(['user/message', { message: { id: 'u', role: 'user', content: [{ type: 'image', url: 'x' }] } }]);
  });
});

/** Relationship cases: a valid prefix, then an event that breaks one §3.4 rule. */
type Broken = { rule: string; prefix: LogJsonRow[]; bad: LogJsonRow };
const OPEN_STEP = [logRow.turnStart(1), logRow.user('u', 'q'), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a'])];
const broken: Broken[] = [
  { rule: 'turn/start only when no turn is open', prefix: [logRow.turnStart(1)], bad: logRow.turnStart(2) },
  { rule: 'turn/start with the next turn number (first is 1)', prefix: [], bad: logRow.turnStart(2) },
  { rule: 'turn/start with the next turn number (no gaps)', prefix: completedTurnRows(1), bad: logRow.turnStart(3) },
  { rule: 'turn/start numbers never repeat', prefix: completedTurnRows(1), bad: logRow.turnStart(1) },
  { rule: 'turn/end matches the open turn', prefix: [logRow.turnStart(1)], bad: logRow.turnEnd(2) },
  { rule: 'turn/end requires no open step', prefix: [logRow.turnStart(1), logRow.stepStart(1, 1)], bad: logRow.turnEnd(1) },
  { rule: 'turn/end requires an open turn', prefix: [], bad: logRow.turnEnd(1) },
  { rule: 'step/start only inside an open turn', prefix: [], bad: logRow.stepStart(1, 1) },
  { rule: 'step/start only with no open step', prefix: [logRow.turnStart(1), logRow.stepStart(1, 1)], bad: logRow.stepStart(1, 2) },
  { rule: 'step/start with the next step number (first is 1)', prefix: [logRow.turnStart(1)], bad: logRow.stepStart(1, 2) },
  {
    rule: 'step/start numbers continue within the turn',
    prefix: [logRow.turnStart(1), logRow.stepStart(1, 1), logRow.stepEnd(1, 1)],
    bad: logRow.stepStart(1, 1),
  },
  { rule: 'step/start names the open turn', prefix: [logRow.turnStart(1)], bad: logRow.stepStart(2, 1) },
  { rule: 'step/end closes the open step', prefix: [logRow.turnStart(1), logRow.stepStart(1, 1)], bad: logRow.stepEnd(1, 2) },
  { rule: 'step/end requires an open step', prefix: [logRow.turnStart(1)], bad: logRow.stepEnd(1, 1) },
  {
    rule: 'assistant/message names the open turn and step',
    prefix: [logRow.turnStart(1), logRow.stepStart(1, 1)],
    bad: logRow.assistant(1, 2, 'x'),
  },
  { rule: 'assistant/message only inside a step', prefix: [logRow.turnStart(1)], bad: logRow.assistant(1, 1, 'x') },
  { rule: 'tool/call names the open turn and step', prefix: OPEN_STEP, bad: logRow.call(2, 1, 'a') },
  { rule: "tool/call's callId is declared by the step's assistant/message", prefix: OPEN_STEP, bad: logRow.call(1, 1, 'zzz') },
  {
    rule: 'tool/call cannot use a callId declared by an earlier step',
    prefix: [...OPEN_STEP, logRow.stepEnd(1, 1), logRow.stepStart(1, 2), logRow.assistant(1, 2, 'x')],
    bad: logRow.call(1, 2, 'a'),
  },
  { rule: 'tool/result names the open turn and step', prefix: [...OPEN_STEP, logRow.call(1, 1, 'a')], bad: logRow.result(1, 2, 'a') },
  { rule: 'tool/result answers a tool/call of the same step', prefix: OPEN_STEP, bad: logRow.result(1, 1, 'a') },
  {
    rule: 'tool/result answers at most once',
    prefix: [...OPEN_STEP, logRow.call(1, 1, 'a'), logRow.result(1, 1, 'a')],
    bad: logRow.result(1, 1, 'a'),
  },
  { rule: 'user/message between turns only as a replace', prefix: completedTurnRows(1), bad: logRow.user('late', 'hello') },
  { rule: 'tool/call between turns is refused', prefix: completedTurnRows(1, ['a']), bad: logRow.call(1, 1, 'a') },
];

describe('§3.4 relationship invariants on append', () => {
  it.each(broken)('§3.4 append refuses: $rule (and appends nothing)', ({ prefix, bad }) => {
    appendAll(session, prefix);
    expectRefused(bad);
  });

  it('§3.4 a refused append does not advance the checker: the correct event is accepted next', () => {
    appendAll(session, [logRow.turnStart(1)]);
    expectRefused(logRow.stepStart(1, 2));
    expect(session.append('step/start', { turn: 1, step: 1 }).seq).toBe(session.events.length - 1);
  });

  it('§3.4 turns continue numbering across the whole log and steps restart at 1 in each turn', () => {
    appendAll(session, [...completedTurnRows(1, ['a']), ...completedTurnRows(2, ['b']), ...completedTurnRows(3)]);
    expect(session.events.filter((event) => event.type === 'turn/start').map((event) => event.data.turn)).toEqual([1, 2, 3]);
  });

  it('§3.4 a call left without a result when its step closes is allowed (a historical failure)', () => {
    appendAll(session, [
      ...OPEN_STEP,
      logRow.call(1, 1, 'a'),
      logRow.stepEnd(1, 1),
      logRow.turnEnd(1, { kind: 'error', error: { message: 'x', code: 'E' } }),
    ]);
    expect(session.events.at(-1)?.type).toBe('turn/end');
  });

  it('§3.4 a declared call may stay without tool/call and without result when its step closes', () => {
    appendAll(session, [...OPEN_STEP, logRow.stepEnd(1, 1), logRow.turnEnd(1, { kind: 'cancelled' })]);
    expect(session.events.at(-1)?.type).toBe('turn/end');
  });

  it('§3.4 session/*, input/queued, plugin events and a replacing user/message may stand between turns', () => {
    const turn = appendAll(session, completedTurnRows(1));
    const first = turn[1]!.seq;
    const last = turn.at(-1)!.seq;
    appendAll(session, [
      logRow.title('t'),
      logRow.config({ tools: ['echo'], cwd: '/w', model: 'keyless' }),
      logRow.plugin('compaction/start'),
      logRow.replaceUser('summary', 'summary of turn 1', first, last - 2),
      logRow.plugin('compaction/end'),
      logRow.queued('in-1', 'next'),
      logRow.turnStart(2),
      logRow.user('u2', 'next', 'in-1'),
      logRow.turnEnd(2),
    ]);
    expect(session.events.at(-1)?.type).toBe('turn/end');
  });

  it('§3.4 plugin events may stand inside a turn and inside a step', () => {
    appendAll(session, [
      ...OPEN_STEP,
      logRow.plugin('acme/progress', { p: 1 }),
      logRow.call(1, 1, 'a'),
      logRow.plugin('acme/progress', { p: 2 }),
      logRow.result(1, 1, 'a'),
      logRow.stepEnd(1, 1),
      logRow.turnEnd(1),
    ]);
    expect(session.events.at(-1)?.type).toBe('turn/end');
  });
});

describe('§3.4 relationship invariants in the V3 and V4 validators', () => {
  it.each(broken.flatMap((entry) => [3, 4].map((version) => ({ ...entry, version: version as 3 | 4 }))))(
    '§3.4 the V$version validator reports INVALID_RELATIONSHIP: $rule',
    ({ prefix, bad, version }) => {
      const events = toEvents([...prefix, bad]);
      expect(validate(version, { header: headerOf(version), events: toEvents(prefix) })).toEqual([]);
      const issues = validate(version, { header: headerOf(version), events });
      expect(issues.map((issue) => issue.code)).toContain('INVALID_RELATIONSHIP');
    },
  );

  it.each([3, 4] as const)(
    '§3.4 the V%s validator admits a closed step with a missing result and standalone events between turns',
    (version) => {
      const events = toEvents([
        ...OPEN_STEP,
        logRow.call(1, 1, 'a'),
        logRow.stepEnd(1, 1),
        logRow.turnEnd(1, { kind: 'error', error: { message: 'x', code: 'E' } }),
        logRow.title('t'),
        logRow.config({ cwd: '/w' }),
        logRow.queued('q1', 'hi'),
        ...completedTurnRows(2),
        logRow.plugin('acme/note'),
      ]);
      expect(validate(version, { header: headerOf(version), events })).toEqual([]);
    },
  );

  it('§3.4 the V4 validator admits a fork seed, whose closers answer declared calls without tool/call', () => {
    const parent = toEvents([...OPEN_STEP, logRow.plugin('acme/x')]);
    const seed = buildForkSeed(parent, parent.length - 1);
    expect(seed.some((event: SessionEvent) => event.type === 'tool/result')).toBe(true);
    expect(
      validate(4, {
        header: v4Header('child', { parentSession: 'p', forkCut: parent.length - 1, inheritedEventCount: parent.length }),
        events: seed,
      }),
    ).toEqual([]);
  });
});
