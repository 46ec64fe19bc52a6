/** SPEC §7 — persisted format V0–V4: reading, frozen validators, migrations, torn tails, encoding. */
import { describe, expect, it } from 'vitest';
import {
  CodecError,
  CURRENT_FORMAT_VERSION,
  decodeJsonl,
  encodeJsonl,
  migrate,
  validate,
  type JsonValue,
  type SessionEvent,
} from 'dsh-codec';
import { createMemoryStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { completedTurnRows, logRow } from '@dsh/test-utils';
import { appendAll, currentHeader, headerOf, jsonl, thrown, toEvents, v4Header } from './support.js';

type Raw = { seq: number; type: string; time: number; data: JsonValue; surfaceOp?: JsonValue; ignorable?: true };
const raw = (entries: [string, JsonValue][], start = 0): Raw[] =>
  entries.map(([type, data], index) => ({ seq: start + index, type, time: 5_000 + 100 * (start + index), data }));

/** The validator issue with `code` at `path` (`['events', seq, …]`), as a matcher. */
function issueAt(code: 'INVALID_EVENT' | 'INVALID_RELATIONSHIP', path: (string | number)[]): unknown {
  return expect.objectContaining({ code, path, seq: path[1] });
}

function codecError(action: () => unknown): CodecError {
  const error = thrown(action);
  if (!CodecError.is(error)) throw new Error(`expected a CodecError, got ${String(error)}`);
  return error;
}

// ---- A V0 log (no header) covering every V0 shape of the table.
const V0: Raw[] = raw([
  ['turn/start', { turn: 1 }],
  ['user/message', { text: 'hi' }],
  ['step/start', { turn: 1, step: 1 }],
  [
    'assistant/message',
    {
      turn: 1,
      step: 1,
      text: 'Reading',
      toolCalls: [
        { id: 'c1', name: 'read', arguments: '{"p":1}' },
        { id: 'c2', name: 'ls', arguments: '{}' },
      ],
    },
  ],
  ['tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{"p":1}' }],
  ['tool/result', { turn: 1, step: 1, callId: 'c1', output: 'content', isError: false }],
  ['tool/call', { turn: 1, step: 1, callId: 'c2', name: 'ls', arguments: '{}' }],
  ['tool/result', { turn: 1, step: 1, callId: 'c2', output: '', isError: true }],
  ['step/end', { turn: 1, step: 1 }],
  ['turn/end', { turn: 1, reason: 'completed' }],
  ['turn/start', { turn: 2 }],
  ['user/message', { text: '' }],
  ['step/start', { turn: 2, step: 1 }],
  ['assistant/message', { turn: 2, step: 1, text: '', toolCalls: [{ id: 'c3', name: 'rm', arguments: '{}' }] }],
  ['step/end', { turn: 2, step: 1 }],
  ['turn/end', { turn: 2, reason: 'aborted' }],
  ['turn/start', { turn: 3 }],
  ['user/message', { text: 'again' }],
  ['turn/end', { turn: 3, reason: 'error' }],
]);

const V0_EXPECTED_DATA: JsonValue[] = [
  { turn: 1 },
  { message: { id: 'legacy-1', role: 'user', content: [{ type: 'text', text: 'hi' }] } },
  { turn: 1, step: 1 },
  {
    turn: 1,
    step: 1,
    message: {
      id: 'legacy-3',
      role: 'assistant',
      content: [
        { type: 'text', text: 'Reading' },
        { type: 'tool-call', id: 'c1', name: 'read', arguments: '{"p":1}' },
        { type: 'tool-call', id: 'c2', name: 'ls', arguments: '{}' },
      ],
    },
  },
  { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{"p":1}', effect: 'unknown' },
  {
    turn: 1,
    step: 1,
    message: { id: 'legacy-5', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'content' }], isError: false },
  },
  { turn: 1, step: 1, callId: 'c2', name: 'ls', arguments: '{}', effect: 'unknown' },
  {
    turn: 1,
    step: 1,
    message: { id: 'legacy-7', role: 'tool', callId: 'c2', content: [], isError: true },
    error: { name: 'ToolError', code: 'TOOL_FAILED' },
  },
  { turn: 1, step: 1 },
  { turn: 1, reason: { kind: 'completed' } },
  { turn: 2 },
  { message: { id: 'legacy-11', role: 'user', content: [] } },
  { turn: 2, step: 1 },
  {
    turn: 2,
    step: 1,
    message: { id: 'legacy-13', role: 'assistant', content: [{ type: 'tool-call', id: 'c3', name: 'rm', arguments: '{}' }] },
  },
  { turn: 2, step: 1 },
  { turn: 2, reason: { kind: 'cancelled' } },
  { turn: 3 },
  { message: { id: 'legacy-17', role: 'user', content: [{ type: 'text', text: 'again' }] } },
  // seq 18 (the V0 "error" reason) is checked on its own: its message is not fixed by the table.
];

// ---- A V1 log: structured messages, {kind} reasons with message, no effects, no result errors.
const V1_HEADER = { format: 'dsh-session', version: 1, id: 'one', createdAt: 4_000, cwd: '/w' };
const userV1 = (id: string, text: string) => ({ id, role: 'user', content: [{ type: 'text', text }] });
const V1: Raw[] = raw([
  ['turn/start', { turn: 1 }],
  ['user/message', { message: userV1('m1', 'hello') }],
  ['step/start', { turn: 1, step: 1 }],
  [
    'assistant/message',
    { turn: 1, step: 1, message: { id: 'm3', role: 'assistant', content: [{ type: 'tool-call', id: 'k', name: 'sh', arguments: '{}' }] } },
  ],
  ['tool/call', { turn: 1, step: 1, callId: 'k', name: 'sh', arguments: '{}' }],
  [
    'tool/result',
    { turn: 1, step: 1, message: { id: 'm5', role: 'tool', callId: 'k', content: [{ type: 'text', text: 'denied' }], isError: true } },
  ],
  ['step/end', { turn: 1, step: 1 }],
  ['turn/end', { turn: 1, reason: { kind: 'error', message: 'tool failed' } }],
  ['turn/start', { turn: 2 }],
  ['user/message', { message: userV1('m9', 'stop') }],
  ['turn/end', { turn: 2, reason: { kind: 'aborted' } }],
]);

// ---- A V2 fork child: fork header, inherited marker, title.
const V2_HEADER = {
  format: 'dsh-session',
  version: 2,
  id: 'two',
  createdAt: 4_000,
  parentSession: 'one',
  forkCut: 2,
  inheritedEventCount: 3,
};
const V2: Raw[] = raw([
  ['turn/start', { turn: 1 }],
  ['user/message', { message: userV1('m1', 'hello') }],
  ['turn/end', { turn: 1, reason: { kind: 'completed' } }],
  ['session/end-seed', { inherited: true }],
  ['session/title', { title: 'child' }],
  ['turn/start', { turn: 2 }],
  ['user/message', { message: userV1('m5', 'bye') }],
  ['turn/end', { turn: 2, reason: { kind: 'aborted' } }],
]);

/** A V3 log with the V3 additions, including canonical interrupted closers taken from a real crash repair. */
async function v3Events(): Promise<SessionEvent[]> {
  const store = createMemoryStore();
  const crashed = await store.create({ id: 'v3' });
  const turn = appendAll(crashed, completedTurnRows(1, ['r1']));
  appendAll(crashed, [
    logRow.config({ tools: ['echo'], cwd: '/w' }),
    logRow.plugin('compaction/start'),
    logRow.replaceUser('sum', 'summary', turn[1]!.seq, turn.at(-3)!.seq),
    logRow.plugin('compaction/end'),
    logRow.queued('q1', 'next'),
    logRow.turnStart(2),
    logRow.user('u2', 'next', 'q1'),
    logRow.stepStart(2, 1),
    logRow.assistant(2, 1, '', ['s', 'n']),
    logRow.call(2, 1, 's', 'side-effect'),
  ]);
  await crashed.close();
  const repaired = await store.open('v3');
  const events = [...repaired.events];
  await store.close();
  return events;
}

describe('§7 reading every version', () => {
  it('§7/§13 CURRENT_FORMAT_VERSION is 7 (§24)', () => {
    expect(CURRENT_FORMAT_VERSION).toBe(7);
  });

  it('§7 V0: decodeJsonl returns sourceVersion 0 and a V7 header synthesized from the caller id and the first event time', () => {
    const decoded = decodeJsonl(jsonl(undefined, V0), { sessionId: 'legacy' });
    expect(decoded.sourceVersion).toBe(0);
    expect(decoded.header).toStrictEqual({
      format: 'dsh-session',
      version: 7,
      id: 'legacy',
      createdAt: V0[0]!.time,
      inheritedEventCount: 0,
    });
    expect(decoded.tornTail).toBeUndefined();
    expect(validate(7, decoded)).toEqual([]);
  });

  it('§7 V0→V1: ids legacy-<seq>, text block only when non-empty, tool-call blocks in order, reason strings become {kind}; then V1→V7 rules', () => {
    const { events } = decodeJsonl(jsonl(undefined, V0), { sessionId: 'legacy' });
    expect(events.map((event) => event.seq)).toEqual(V0.map((event) => event.seq));
    expect(events.map((event) => event.time)).toEqual(V0.map((event) => event.time));
    events.slice(0, -1).forEach((event, index) => {
      expect(event.data, `seq ${index}`).toStrictEqual(V0_EXPECTED_DATA[index]);
    });
    const last = events.at(-1)!.data as { turn: number; reason: { kind: string; error: { message: unknown; code: string } } };
    expect(last.turn).toBe(3);
    expect(last.reason.kind).toBe('error');
    expect(last.reason.error.code).toBe('UNKNOWN');
    expect(typeof last.reason.error.message).toBe('string');
    expect(Object.keys(last.reason.error).sort()).toEqual(['code', 'message']);
  });

  it('§7 V0 with no events: createdAt is 0', () => {
    expect(migrate({ events: [] }, 0, { sessionId: 'empty' }).header).toStrictEqual({
      format: 'dsh-session',
      version: 7,
      id: 'empty',
      createdAt: 0,
      inheritedEventCount: 0,
    });
  });

  it('§7 V1: sourceVersion 1; header gains inheritedEventCount 0; aborted → cancelled; error reasons get {message, code: UNKNOWN}; results and calls upgraded', () => {
    const decoded = decodeJsonl(jsonl(V1_HEADER, V1));
    expect(decoded.sourceVersion).toBe(1);
    expect(decoded.header).toStrictEqual({
      format: 'dsh-session',
      version: 7,
      id: 'one',
      createdAt: 4_000,
      cwd: '/w',
      inheritedEventCount: 0,
    });
    const data = decoded.events.map((event) => event.data as Record<string, JsonValue>);
    expect(data[4]).toStrictEqual({ turn: 1, step: 1, callId: 'k', name: 'sh', arguments: '{}', effect: 'unknown' });
    expect(data[5]).toStrictEqual({
      turn: 1,
      step: 1,
      message: { id: 'm5', role: 'tool', callId: 'k', content: [{ type: 'text', text: 'denied' }], isError: true },
      error: { name: 'ToolError', code: 'TOOL_FAILED' },
    });
    expect(data[7]).toStrictEqual({ turn: 1, reason: { kind: 'error', error: { message: 'tool failed', code: 'UNKNOWN' } } });
    expect(data[10]).toStrictEqual({ turn: 2, reason: { kind: 'cancelled' } });
    expect(data[1]).toStrictEqual({ message: userV1('m1', 'hello') });
  });

  it('§7 V2: sourceVersion 2; fork header kept, V2→V3 rules applied', () => {
    const decoded = decodeJsonl(jsonl(V2_HEADER, V2));
    expect(decoded.sourceVersion).toBe(2);
    expect(decoded.header).toStrictEqual({ ...V2_HEADER, version: 7 });
    expect(decoded.events.map((event) => event.data)).toStrictEqual([
      { turn: 1 },
      { message: userV1('m1', 'hello') },
      { turn: 1, reason: { kind: 'completed' } },
      { inherited: true },
      { title: 'child' },
      { turn: 2 },
      { message: userV1('m5', 'bye') },
      { turn: 2, reason: { kind: 'cancelled' } },
    ]);
  });

  it('§7 V3: sourceVersion 3; V3→V4→V5→V6→V7 changes only the header version, events preserved unchanged', async () => {
    const events = await v3Events();
    const text = jsonl(headerOf(3, 'v3'), events);
    const decoded = decodeJsonl(text);
    expect(decoded.sourceVersion).toBe(3);
    expect(decoded.header).toStrictEqual(headerOf(7, 'v3'));
    expect(decoded.events).toStrictEqual(JSON.parse(`[${text.trim().split('\n').slice(1).join(',')}]`));
  });

  it('§7 V4: sourceVersion 4, events returned as written, header version 7', () => {
    const events = toEvents([logRow.title('t'), ...completedTurnRows(1, ['a'])]);
    const decoded = decodeJsonl(jsonl(v4Header('four'), events));
    expect(decoded.sourceVersion).toBe(4);
    expect(decoded.header).toStrictEqual(currentHeader('four'));
    expect(decoded.events).toStrictEqual(events);
  });
});

describe('§7 migration edge rules', () => {
  it('§7 V1→V3: an aborted reason carrying a message becomes plain { kind: "cancelled" }; an error without message still gets code UNKNOWN', () => {
    const events = raw([
      ['turn/start', { turn: 1 }],
      ['turn/end', { turn: 1, reason: { kind: 'aborted', message: 'user pressed stop' } }],
      ['turn/start', { turn: 2 }],
      ['turn/end', { turn: 2, reason: { kind: 'error' } }],
      ['turn/start', { turn: 3 }],
      ['turn/end', { turn: 3, reason: { kind: 'completed', message: 'fine' } }],
    ]);
    expect(validate(1, { header: V1_HEADER, events })).toEqual([]);
    const decoded = decodeJsonl(jsonl(V1_HEADER, events));
    expect(decoded.events[1]!.data).toStrictEqual({ turn: 1, reason: { kind: 'cancelled' } });
    const error = (decoded.events[3]!.data as { reason: { kind: string; error: { message: unknown; code: string } } }).reason;
    expect(error.kind).toBe('error');
    expect(error.error.code).toBe('UNKNOWN');
    expect(typeof error.error.message).toBe('string');
    expect(decoded.events[5]!.data).toStrictEqual({ turn: 3, reason: { kind: 'completed' } });
  });

  it('§7 a torn final line of a V0 log (no header) is reported with its byte offset and line', () => {
    const text = jsonl(undefined, V0.slice(0, 3));
    const decoded = decodeJsonl(text.slice(0, -1), { sessionId: 'legacy' });
    const lastStart = text.slice(0, -1).lastIndexOf('\n') + 1;
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(text.slice(0, lastStart)), line: 3 });
    expect(decoded.events).toHaveLength(2);
  });
});

describe('§7 migrate', () => {
  it('§7 migrate(V0) applies the whole chain and needs the caller id', () => {
    const migrated = migrate({ events: V0 }, 0, { sessionId: 'legacy' });
    expect(migrated).toStrictEqual({
      header: decodeJsonl(jsonl(undefined, V0), { sessionId: 'legacy' }).header,
      events: decodeJsonl(jsonl(undefined, V0), { sessionId: 'legacy' }).events,
    });
  });

  it('§7 migrate(V1) adds inheritedEventCount 0 and returns V7', () => {
    const migrated = migrate({ header: V1_HEADER, events: V1 }, 1);
    expect(migrated.header.version).toBe(7);
    expect(migrated.header.inheritedEventCount).toBe(0);
    expect(validate(7, migrated)).toEqual([]);
  });

  it('§7 migrate(V3) keeps every event unchanged and sets header version 7', async () => {
    const events = await v3Events();
    const input = { header: headerOf(3, 'v3'), events: JSON.parse(JSON.stringify(events)) as JsonValue[] };
    const snapshot = JSON.stringify(input);
    const migrated = migrate(input, 3);
    expect(migrated.header).toStrictEqual(headerOf(7, 'v3'));
    expect(migrated.events).toStrictEqual(events);
    expect(JSON.stringify(input)).toBe(snapshot);
  });

  it('§7 migration does not modify its input', () => {
    const input = { header: V1_HEADER, events: JSON.parse(JSON.stringify(V1)) as Raw[] };
    const snapshot = JSON.stringify(input);
    migrate(input, 1);
    expect(JSON.stringify(input)).toBe(snapshot);
  });
});

describe('§7 frozen validators', () => {
  it('§7 each version validates its own artifacts (V0 without a header)', async () => {
    expect(validate(0, { events: V0 })).toEqual([]);
    expect(validate(1, { header: V1_HEADER, events: V1 })).toEqual([]);
    expect(validate(2, { header: V2_HEADER, events: V2 })).toEqual([]);
    expect(validate(3, { header: headerOf(3, 'v3'), events: await v3Events() })).toEqual([]);
    expect(validate(4, { header: v4Header('v4'), events: toEvents(completedTurnRows(1, ['a'])) })).toEqual([]);
  });

  it('§7 validators are frozen per version: older ones refuse later additions', () => {
    // V1 has no session/title; V2 has no input/queued; V3 has no forked reason.
    expect(validate(1, { header: V1_HEADER, events: raw([['session/title', { title: 'x' }]]) })).toEqual([
      issueAt('INVALID_EVENT', ['events', 0, 'type']),
    ]);
    expect(
      validate(2, {
        header: V2_HEADER,
        events: [...V2, ...raw([['input/queued', { inputId: 'i', message: userV1('m', 'x') }]], V2.length)],
      }),
    ).toEqual([issueAt('INVALID_EVENT', ['events', V2.length, 'type'])]);
    // V1's user/message carries a message where V0's carries text.
    expect(validate(0, { events: V1 })).toContainEqual(issueAt('INVALID_EVENT', ['events', 1, 'data', 'text']));
  });

  it('§7 the V3 validator rejects the forked turn-end reason', () => {
    const events = buildForkSeed(toEvents([logRow.turnStart(1), logRow.user('u', 'q')]), 1);
    expect(events.at(-1)?.data).toEqual({ turn: 1, reason: { kind: 'forked' } });
    const header = headerOf(3, 'child', { parentSession: 'p', forkCut: 1, inheritedEventCount: 2 });
    expect(validate(3, { header, events })).toEqual([issueAt('INVALID_EVENT', ['events', 3, 'data', 'reason', 'kind'])]);
    expect(validate(4, { header: { ...header, version: 4 }, events })).toEqual([]);
  });

  it('§7 the V3 validator rejects forked results', () => {
    const events = buildForkSeed(toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a'])]), 2);
    // Keep the forked result but end the turn with a V3 reason, so only the result is forked.
    const onlyResult = [...events.slice(0, -1), { ...events.at(-1)!, data: { turn: 1, reason: { kind: 'cancelled' } } }];
    const header = headerOf(3, 'child', { parentSession: 'p', forkCut: 2, inheritedEventCount: 3 });
    // The forked result is not V3's canonical interrupted one: neither its id nor its wording.
    expect(validate(3, { header, events: onlyResult })).toEqual([
      issueAt('INVALID_RELATIONSHIP', ['events', 4, 'data', 'message', 'id']),
      issueAt('INVALID_RELATIONSHIP', ['events', 4, 'data', 'message', 'content']),
    ]);
  });

  it('§7 the V3 validator rejects a forked started result too (one answering a tool/call)', () => {
    const events = buildForkSeed(
      toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a']), logRow.call(1, 1, 'a', 'side-effect')]),
      3,
    );
    expect(events.map((event) => event.type).slice(5)).toEqual(['tool/result', 'step/end', 'turn/end']);
    const v3Ending = [...events.slice(0, -1), { ...events.at(-1)!, data: { turn: 1, reason: { kind: 'cancelled' } } }];
    const header = headerOf(3, 'child', { parentSession: 'p', forkCut: 3, inheritedEventCount: 4 });
    expect(validate(3, { header, events: v3Ending })).toEqual([
      issueAt('INVALID_RELATIONSHIP', ['events', 5, 'data', 'message', 'id']),
      issueAt('INVALID_RELATIONSHIP', ['events', 5, 'data', 'message', 'content']),
    ]);
    expect(validate(4, { header: { ...header, version: 4 }, events })).toEqual([]);
  });

  it('§7 V4 admits a canonical forked not-started result without tool/call, and decoding returns its original id and message', () => {
    const parent = toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a', 'b'])]);
    const seed = buildForkSeed(parent, 2);
    const header = v4Header('child', { parentSession: 'p', forkCut: 2, inheritedEventCount: 3 });
    expect(validate(4, { header, events: seed })).toEqual([]);
    const decoded = decodeJsonl(jsonl(header, seed));
    expect(decoded.events).toStrictEqual(seed);
    const result = decoded.events[4]!.data as { message: { id: string; content: { text: string }[] } };
    expect(result.message.id).toBe('forked-tool-result-a-4');
    expect(result.message.content[0]!.text).not.toMatch(/interrupt/i);
  });

  it('§7 V4 refuses a forked not-started result whose wording, id or error is not canonical', () => {
    const parent = toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a'])]);
    const seed = buildForkSeed(parent, 2);
    const header = v4Header('child', { parentSession: 'p', forkCut: 2, inheritedEventCount: 3 });
    const result = seed[4]!;
    const data = result.data as { message: { id: string; content: { type: string; text: string }[] }; error: JsonValue };
    const at = (field: string) => issueAt('INVALID_RELATIONSHIP', ['events', 4, 'data', 'message', field]);
    // Each alteration, and the issues naming it (an id that is no fork id is checked as an interrupted one).
    const variants: [unknown, unknown[]][] = [
      [{ ...data, message: { ...data.message, content: [{ type: 'text', text: 'Something else.' }] } }, [at('content')]],
      [{ ...data, message: { ...data.message, id: 'forked-tool-result-a-99' } }, [at('id')]],
      [{ ...data, message: { ...data.message, id: 'tool-result-a-4' } }, [at('id'), at('content')]],
      [{ ...data, error: { name: 'ToolError', code: 'TOOL_FAILED' } }, [at('callId')]],
    ];
    for (const [variant, issues] of variants) {
      const events = [...seed.slice(0, 4), { ...result, data: variant as JsonValue }, ...seed.slice(5)];
      expect(validate(4, { header, events }), JSON.stringify(variant)).toEqual(issues);
    }
  });

  it('§7 V3 admits a canonical interrupted not-started result without tool/call, and refuses altered wording', async () => {
    const events = await v3Events();
    const notStarted = events.findIndex(
      (event) => event.type === 'tool/result' && (event.data as { error?: { code: string } }).error?.code === 'TOOL_NOT_STARTED',
    );
    expect(notStarted).toBeGreaterThan(0);
    expect(validate(3, { header: headerOf(3, 'v3'), events })).toEqual([]);
    const data = events[notStarted]!.data as { message: Record<string, JsonValue> };
    const altered = { ...data, message: { ...data.message, content: [{ type: 'text', text: 'It did not run.' }] } };
    const broken = events.map((event, index) => (index === notStarted ? { ...event, data: altered } : event));
    expect(validate(3, { header: headerOf(3, 'v3'), events: broken })).toEqual([
      issueAt('INVALID_RELATIONSHIP', ['events', notStarted, 'data', 'message', 'content']),
    ]);
  });

  it('§7 a V3 log that contains fork closers is refused when read (the header must first become V4)', () => {
    const seed = buildForkSeed(toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), logRow.assistant(1, 1, '', ['a'])]), 2);
    const header = headerOf(3, 'child', { parentSession: 'p', forkCut: 2, inheritedEventCount: 3 });
    const error = codecError(() => decodeJsonl(jsonl(header, seed)));
    // The V3 validator's refusals of both closers: the forked result (seq 4, line 6) and the forked reason.
    expect({ code: error.code, line: error.line }).toEqual({ code: 'INVALID_RELATIONSHIP', line: 6 });
    expect(error.issues).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'INVALID_RELATIONSHIP', seq: 4, path: ['events', 4, 'data', 'message', 'id'] }),
        expect.objectContaining({ code: 'INVALID_EVENT', seq: 6, path: ['events', 6, 'data', 'reason', 'kind'] }),
      ]),
    );
  });
});

describe('§7 refusals and torn tails', () => {
  it('§7 a newer version is refused with UNSUPPORTED_VERSION saying "written by a newer dsh — upgrade"', () => {
    for (const version of [8, 42]) {
      const error = codecError(() => decodeJsonl(jsonl({ ...currentHeader(), version }, [])));
      expect(error.code).toBe('UNSUPPORTED_VERSION');
      expect(error.message).toContain('written by a newer dsh — upgrade');
    }
  });

  it('§7 a final line without its newline is a torn tail { offset (bytes), line }, not an error', () => {
    const events = toEvents([logRow.title('ünïcödé ✓'), logRow.title('second'), logRow.title('third')]);
    const text = jsonl(v4Header('t'), events);
    const cut = text.slice(0, -1);
    const decoded = decodeJsonl(cut);
    const lastLineStart = text.slice(0, -1).lastIndexOf('\n') + 1;
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(text.slice(0, lastLineStart)), line: 4 });
    expect(decoded.events).toStrictEqual(events.slice(0, 2));
  });

  it('§7 an unparsable last line is a torn tail, with or without its newline', () => {
    const events = toEvents([logRow.title('é'), logRow.title('b')]);
    const good = jsonl(v4Header('t'), events);
    for (const fragment of ['{"seq":2,"type":"sess', '{"seq":2,"type":"sess\n']) {
      const decoded = decodeJsonl(good + fragment);
      expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(good), line: 4 });
      expect(decoded.events).toStrictEqual(events);
    }
  });

  it('§7 an unparsable line before the last is corruption: the whole log is refused with its line number', () => {
    const events = toEvents([logRow.title('a'), logRow.title('b'), logRow.title('c')]);
    const lines = jsonl(v4Header('t'), events).split('\n');
    lines[2] = '{"seq":1,"type":';
    const error = codecError(() => decodeJsonl(lines.join('\n')));
    expect(['MALFORMED_JSON', 'CORRUPT']).toContain(error.code);
    expect(error.message).toMatch(/line 3\b/);
  });

  it('§7 an invalid (parsable) line is refused with its line number, even when later lines are valid or it is last', () => {
    const events = toEvents([logRow.title('a'), logRow.title('b'), logRow.title('c')]);
    const middle = jsonl(v4Header('t'), [events[0], { ...events[1], time: 'soon' }, events[2]]);
    const error = codecError(() => decodeJsonl(middle));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(/line 3\b/);
    const last = jsonl(v4Header('t'), [events[0], events[1], { ...events[2], data: { title: 7 } }]);
    const lastError = codecError(() => decodeJsonl(last));
    expect(lastError.code).toBe('INVALID_EVENT');
    expect(lastError.message).toMatch(/line 4\b/);
  });

  it('§7 error codes: INVALID_HEADER for a bad header, INVALID_RELATIONSHIP for a broken invariant', () => {
    expect(codecError(() => decodeJsonl(jsonl({ ...v4Header(), id: 5 }, []))).code).toBe('INVALID_HEADER');
    expect(codecError(() => decodeJsonl(jsonl({ format: 'other', version: 4 }, []))).code).toBe('INVALID_HEADER');
    const broken = codecError(() => decodeJsonl(jsonl(v4Header(), toEvents([logRow.turnStart(2)]))));
    expect(broken.code).toBe('INVALID_RELATIONSHIP');
    expect(broken.message).toMatch(/line 2\b/);
  });

  it('§7 every CodecError is an Error with name CodecError and one of the six codes', () => {
    const error = codecError(() => decodeJsonl(jsonl({ ...v4Header(), version: 9 }, [])));
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('CodecError');
    expect(['MALFORMED_JSON', 'INVALID_HEADER', 'INVALID_EVENT', 'INVALID_RELATIONSHIP', 'UNSUPPORTED_VERSION', 'CORRUPT']).toContain(
      error.code,
    );
  });
});

describe('§7 encodeJsonl', () => {
  it("§7 writes V7: a header line then one line per event, every line '\\n'-terminated, and decodes back unchanged", () => {
    const events = toEvents([logRow.title('t'), ...completedTurnRows(1, ['a']), logRow.plugin('acme/x', { n: 1 })]);
    const text = encodeJsonl({ header: currentHeader('enc'), events });
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.split('\n');
    expect(lines.pop()).toBe('');
    expect(lines).toHaveLength(events.length + 1);
    expect(JSON.parse(lines[0]!)).toStrictEqual(currentHeader('enc'));
    lines.slice(1).forEach((line, index) => {
      expect(JSON.parse(line)).toStrictEqual(events[index]);
    });
    const decoded = decodeJsonl(text);
    expect(decoded).toStrictEqual({ header: currentHeader('enc'), events, sourceVersion: 7 });
  });

  it('§7 a migrated log encodes as V7 and reads back as sourceVersion 7', () => {
    const migrated = decodeJsonl(jsonl(undefined, V0), { sessionId: 'legacy' });
    const text = encodeJsonl(migrated);
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ version: 7 });
    const again = decodeJsonl(text);
    expect(again.sourceVersion).toBe(7);
    expect(again.events).toStrictEqual(migrated.events);
  });
});
