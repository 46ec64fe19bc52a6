/** SPEC §13 — format V5: reasoning blocks in assistant messages, the `forkRequest` header field, V4 → V5. */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, decodeJsonl, encodeJsonl, migrate, validate, type JsonValue, type SessionHeader } from 'dsh-codec';
import { deriveHistory } from 'dsh-agent';
import { createMemoryStore, openSessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { completedTurnRows, type LogJsonRow, logRow, logUserMessage, makeTempDir } from '@dsh/test-utils';
import { appendAll, currentHeader, jsonl, thrown, toEvents, v4Header } from './support.js';

const SIGNED = { type: 'reasoning', text: 'Read the log before answering.', providerData: { signature: 'EqQBCkYIBxgC' } };
const REDACTED = { type: 'reasoning', text: '', providerData: { type: 'redacted_thinking', data: 'EmwKAhgBEgy3' } };
const PLAIN = { type: 'reasoning', text: 'No provider data at all.' };

/** An assistant message whose content starts with `blocks`, then `text`, then one tool-call block per id. */
function thinking(turn: number, step: number, blocks: JsonValue[], text: string, callIds: string[] = []): LogJsonRow {
  const calls = callIds.map((id) => ({ type: 'tool-call', id, name: 'echo', arguments: '{}' }));
  return [
    'assistant/message',
    {
      turn,
      step,
      message: {
        id: `a-${turn}-${step}`,
        role: 'assistant',
        content: [...blocks, ...(text === '' ? [] : [{ type: 'text', text }]), ...calls],
      },
    },
  ];
}

/** A turn whose first step thinks (signed, redacted) and calls `c1`, whose second step thinks in plain text and answers. */
const REASONING_TURN: LogJsonRow[] = [
  logRow.turnStart(1),
  logRow.user('u1', 'Why did the deploy fail?'),
  logRow.stepStart(1, 1),
  thinking(1, 1, [SIGNED, REDACTED], '', ['c1']),
  logRow.call(1, 1, 'c1'),
  logRow.result(1, 1, 'c1', 'error: missing DATABASE_URL'),
  logRow.stepEnd(1, 1),
  logRow.stepStart(1, 2),
  thinking(1, 2, [PLAIN], 'DATABASE_URL is missing.'),
  logRow.stepEnd(1, 2),
  logRow.turnEnd(1),
];

/** A V5 header (§13 froze V5; §23 made V6 and §24 V7 the current format, which reads V5 unchanged but for the version). */
const v5Header = (id = 'acc', extra: Partial<SessionHeader> = {}) => ({ ...currentHeader(id, extra), version: 5 });

describe('§13 format V5', () => {
  it('§13 a V5 log with reasoning blocks reads back exactly (V7, current since §24, changes only its header version), byte for byte once encoded', () => {
    expect(CURRENT_FORMAT_VERSION).toBe(7);
    const events = toEvents([logRow.title('t'), ...REASONING_TURN]);
    expect(validate(5, { header: v5Header('five'), events })).toEqual([]);
    const decoded = decodeJsonl(jsonl(v5Header('five'), events));
    expect(decoded).toStrictEqual({ header: currentHeader('five'), events, sourceVersion: 5 });
    const text = jsonl(currentHeader('five'), events);
    expect(encodeJsonl(decoded)).toBe(text);
    expect(decodeJsonl(text)).toStrictEqual({ header: currentHeader('five'), events, sourceVersion: 7 });
  });

  it('§13 the V4 validator stays frozen: it refuses reasoning blocks, which the V5 validator admits', () => {
    const events = toEvents(REASONING_TURN);
    expect(validate(5, { header: v5Header(), events })).toEqual([]);
    const issues = validate(4, { header: v4Header(), events });
    expect(issues.length).toBeGreaterThan(0);
    expect(issues.map((issue) => issue.seq)).toContain(3);
    const error = thrown(() => decodeJsonl(jsonl(v4Header(), events)));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(/line 5\b/);
  });

  it('§13 reasoning belongs to assistant messages: a user message or tool result holding one is refused, and so is a malformed block', () => {
    const user = toEvents([logRow.turnStart(1), ['user/message', { message: { ...logUserMessage('u', 'hi'), content: [PLAIN] } }]]);
    expect(validate(5, { header: v5Header(), events: user })).toMatchObject([{ code: 'INVALID_EVENT', seq: 1 }]);
    const result = toEvents([
      logRow.turnStart(1),
      logRow.stepStart(1, 1),
      logRow.assistant(1, 1, '', ['c']),
      logRow.call(1, 1, 'c'),
      ['tool/result', { turn: 1, step: 1, message: { id: 'r', role: 'tool', callId: 'c', content: [PLAIN], isError: false } }],
    ]);
    expect(validate(5, { header: v5Header(), events: result })).toMatchObject([{ code: 'INVALID_EVENT', seq: 4 }]);
    for (const block of [
      { type: 'reasoning' },
      { ...SIGNED, providerData: 'sig' },
      { ...SIGNED, providerData: ['sig'] },
      { ...PLAIN, extra: 1 },
    ]) {
      const events = toEvents([logRow.turnStart(1), logRow.stepStart(1, 1), thinking(1, 1, [block], 'x')]);
      expect(validate(5, { header: v5Header(), events }), JSON.stringify(block)).toMatchObject([{ code: 'INVALID_EVENT', seq: 2 }]);
    }
  });

  it('§13/§12 a V5 header may carry forkRequest { key, digest }; V4 refuses it; a malformed one is INVALID_HEADER', () => {
    const header = v5Header('child', {
      parentSession: 'p',
      forkCut: -1,
      inheritedEventCount: 0,
      forkRequest: { key: 'retry-1', digest: 'sha256-abc' },
    });
    const events = buildForkSeed([], -1, 1_000);
    const text = jsonl(header, events);
    const current = { ...header, version: CURRENT_FORMAT_VERSION };
    expect(decodeJsonl(text).header).toStrictEqual(current);
    expect(decodeJsonl(encodeJsonl(decodeJsonl(text))).header).toStrictEqual(current);
    expect(validate(4, { header: { ...header, version: 4 }, events })).not.toEqual([]);
    for (const forkRequest of [{ key: 'k' }, { key: '', digest: 'd' }, { key: 'k', digest: 'd', extra: 1 }, 'k']) {
      expect(thrown(() => decodeJsonl(jsonl({ ...header, forkRequest }, events))).code, JSON.stringify(forkRequest)).toBe('INVALID_HEADER');
    }
  });

  it('§13 migration V4 → V5 (→ V6 → V7) changes the header version only; the events are the very same', () => {
    const events = toEvents([logRow.title('t'), ...completedTurnRows(1, ['a'])]);
    const migrated = migrate({ header: v4Header('four'), events }, 4);
    expect(migrated.header).toStrictEqual(currentHeader('four'));
    migrated.events.forEach((event, index) => {
      expect(event).toBe(events[index]);
    });
    const decoded = decodeJsonl(jsonl(v4Header('four'), events));
    expect(decoded).toStrictEqual({ header: currentHeader('four'), events, sourceVersion: 4 });
  });

  it('§13 a log newer than the current format (V7 since §23) is refused with UNSUPPORTED_VERSION: "written by a newer dsh — upgrade"', () => {
    const error = thrown(() => decodeJsonl(jsonl({ ...currentHeader(), version: CURRENT_FORMAT_VERSION + 1 }, [])));
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toContain('written by a newer dsh — upgrade');
  });

  it('§13 model history includes reasoning blocks, in place and unchanged', () => {
    const events = toEvents(REASONING_TURN);
    const history = deriveHistory(events);
    expect(history.map((message) => message.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(history[1]?.content.slice(0, 2)).toStrictEqual([SIGNED, REDACTED]);
    expect(history[3]?.content[0]).toStrictEqual(PLAIN);
  });

  it('§13 fork and repair apply unchanged: an open step that thought keeps its reasoning, the closers are those of a log without it', async () => {
    const open = [logRow.turnStart(1), logRow.user('u1', 'go'), logRow.stepStart(1, 1)];
    const withReasoning = toEvents([
      ...open,
      thinking(1, 1, [SIGNED, REDACTED], 'Running both.', ['c1', 'c2']),
      logRow.call(1, 1, 'c1', 'side-effect'),
    ]);
    const without = toEvents([...open, thinking(1, 1, [], 'Running both.', ['c1', 'c2']), logRow.call(1, 1, 'c1', 'side-effect')]);
    const cut = withReasoning.length - 1;
    const seed = buildForkSeed(withReasoning, cut);
    expect(seed.slice(cut + 1)).toStrictEqual(buildForkSeed(without, cut).slice(cut + 1));
    expect(seed[3]).toBe(withReasoning[3]);

    const store = createMemoryStore();
    const parent = await store.create({ id: 'parent' });
    appendAll(parent, [...open, thinking(1, 1, [SIGNED, REDACTED], 'Running both.', ['c1', 'c2']), logRow.call(1, 1, 'c1', 'side-effect')]);
    const child = await store.fork('parent', { atSeq: parent.events.length - 1, id: 'child' });
    expect(child.header.version).toBe(CURRENT_FORMAT_VERSION);
    expect(child.events[3]?.data).toStrictEqual(parent.events[3]?.data);
    await store.close();

    const dir = await makeTempDir();
    try {
      const events = toEvents([...open, thinking(1, 1, [SIGNED], '', ['c1']), logRow.call(1, 1, 'c1')]);
      await writeFile(join(dir.path, 'crashed.jsonl'), jsonl(currentHeader('crashed'), events));
      const jsonlStore = await openSessionStore({ dir: dir.path });
      const session = await jsonlStore.open('crashed');
      expect(session.events.slice(0, events.length)).toStrictEqual(events);
      expect(session.events.slice(events.length).map((event) => event.type)).toEqual([
        'tool/result',
        'step/end',
        'turn/end',
        'session/end-seed',
      ]);
      await jsonlStore.close();
      expect(decodeJsonl(await readFile(join(dir.path, 'crashed.jsonl'), 'utf8')).events).toStrictEqual(session.events);
    } finally {
      await dir.remove();
    }
  });
});
