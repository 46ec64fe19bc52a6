import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl, encodeJsonl, safeDecodeJsonl, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { CodecLog, childHeader, completedTurn, rootHeader } from './__fixtures__/build-log.js';

function encoded(header: SessionHeader, events: readonly SessionEvent[]): string {
  return encodeJsonl({ header, events });
}

/** The CodecError `fn` throws (fails the test if it throws anything else or nothing). */
function codecError(fn: () => unknown): CodecError {
  try {
    fn();
  } catch (error) {
    expect(CodecError.is(error)).toBe(true);
    return error as CodecError;
  }
  throw new Error('expected a CodecError, nothing was thrown');
}

const log = completedTurn(new CodecLog().title('first'), 1);
const text = encoded(rootHeader(), log.events);
const lines = text.split('\n').slice(0, -1);

describe('decodeJsonl (V7)', () => {
  it('returns the header and events of a V7 log as written', () => {
    const decoded = decodeJsonl(text);
    expect(decoded).toEqual({ header: rootHeader(), events: log.events, sourceVersion: 7 });
    expect('tornTail' in decoded).toBe(false);
  });

  it('reports a final line without its newline as a torn tail and returns the events before it', () => {
    const partial = `${lines.slice(0, 5).join('\n')}\n${(lines[5] as string).slice(0, 10)}`;
    const decoded = decodeJsonl(partial);
    expect(decoded.events).toEqual(log.events.slice(0, 4));
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(`${lines.slice(0, 5).join('\n')}\n`), line: 6 });
  });

  it('treats a complete final object without its newline as torn too (it was never committed)', () => {
    const decoded = decodeJsonl(lines.slice(0, 4).join('\n'));
    expect(decoded.events).toEqual(log.events.slice(0, 2));
    expect(decoded.tornTail?.line).toBe(4);
  });

  it('reports an unparsable final line as a torn tail', () => {
    const decoded = decodeJsonl(`${lines.slice(0, 3).join('\n')}\n{"seq":2,"ty\n`);
    expect(decoded.events).toEqual(log.events.slice(0, 2));
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(`${lines.slice(0, 3).join('\n')}\n`), line: 4 });
  });

  it('counts the torn offset in UTF-8 bytes', () => {
    const unicode = new CodecLog().title('héllo — 日本 🎉').title('second');
    const full = encoded(rootHeader(), unicode.events);
    const cut = full.lastIndexOf('{"seq":1');
    const decoded = decodeJsonl(full.slice(0, cut + 5));
    expect(decoded.tornTail).toEqual({ offset: Buffer.byteLength(full.slice(0, cut)), line: 3 });
    expect(decoded.events).toEqual(unicode.events.slice(0, 1));
  });

  it('refuses an unparsable line that is not the last, naming its line, and never drops later lines', () => {
    const corrupt = [...lines.slice(0, 3), '{"seq":2,"type"', ...lines.slice(4)].join('\n') + '\n';
    const error = codecError(() => decodeJsonl(corrupt));
    expect(error.code).toBe('MALFORMED_JSON');
    expect(error.line).toBe(4);
    expect(error.message).toContain('line 4');
  });

  it('refuses an unparsable line even when only a torn line follows it', () => {
    const corrupt = `${lines.slice(0, 3).join('\n')}\nnot json\n{"seq":`;
    expect(codecError(() => decodeJsonl(corrupt))).toMatchObject({ code: 'MALFORMED_JSON', line: 4 });
  });

  it('refuses an invalid event with its line, seq and every issue', () => {
    const bad = lines.map((line, index) => (index === 2 ? line.replace('"turn":1', '"turn":"one"') : line)).join('\n') + '\n';
    const error = codecError(() => decodeJsonl(bad));
    expect(error).toMatchObject({ code: 'INVALID_EVENT', line: 3 });
    expect(error.issues[0]).toMatchObject({ seq: 1, path: ['events', 1, 'data', 'turn'] });
    expect(error.message).toMatch(/line 3: .*seq 1/);
  });

  it('refuses a relationship violation with its line', () => {
    const events = [...log.events.slice(0, 1), { ...(log.events[1] as SessionEvent), data: { turn: 2 } }];
    const bad = `${lines[0] as string}\n${events.map((e) => JSON.stringify(e)).join('\n')}\n`;
    expect(codecError(() => decodeJsonl(bad))).toMatchObject({ code: 'INVALID_RELATIONSHIP', line: 3 });
  });

  it('refuses a blank line in the middle as corruption', () => {
    const bad = [...lines.slice(0, 2), '', ...lines.slice(2)].join('\n') + '\n';
    expect(codecError(() => decodeJsonl(bad))).toMatchObject({ code: 'MALFORMED_JSON', line: 3 });
  });

  it('refuses a newer format version: "written by a newer dsh — upgrade"', () => {
    const newer = text.replace('"version":7', '"version":8');
    const error = codecError(() => decodeJsonl(newer));
    expect(error.code).toBe('UNSUPPORTED_VERSION');
    expect(error.message).toContain('written by a newer dsh — upgrade');
    expect(error.line).toBe(1);
  });

  it('refuses an invalid header and a torn header line', () => {
    expect(codecError(() => decodeJsonl(text.replace('"format":"dsh-session"', '"format":"other"'))).code).toBe('INVALID_HEADER');
    expect(codecError(() => decodeJsonl(text.replace('"inheritedEventCount":0', '"inheritedEventCount":-1'))).code).toBe('INVALID_HEADER');
    expect(codecError(() => decodeJsonl('{"format":"dsh-sess')).code).toBe('CORRUPT');
    expect(codecError(() => decodeJsonl(lines[0] as string)).code).toBe('CORRUPT');
    expect(codecError(() => decodeJsonl('[1,2]\n')).code).toBe('INVALID_HEADER');
  });

  it('reads an empty text as a V0 log with no events, which needs its session id', () => {
    expect(decodeJsonl('', { sessionId: 'old' })).toEqual({
      header: { format: 'dsh-session', version: 7, id: 'old', createdAt: 0, inheritedEventCount: 0 },
      events: [],
      sourceVersion: 0,
    });
    expect(codecError(() => decodeJsonl('')).code).toBe('INVALID_HEADER');
    expect(decodeJsonl('{"seq":0,"type":"turn/st', { sessionId: 'old' })).toMatchObject({
      events: [],
      sourceVersion: 0,
      tornTail: { offset: 0, line: 1 },
    });
  });

  it('refuses an unknown event type that is not ignorable, and returns an ignorable one untouched', () => {
    const plugin = new CodecLog().add('compaction/summary', { text: 'x', tokens: 12 }, { ignorable: true });
    expect(decodeJsonl(encoded(rootHeader(), plugin.events)).events).toEqual(plugin.events);
    const unknown = `${lines[0] as string}\n{"seq":0,"type":"compaction/summary","time":1,"data":{}}\n`;
    expect(codecError(() => decodeJsonl(unknown))).toMatchObject({ code: 'INVALID_EVENT', line: 2 });
  });

  it('refuses -0, an exponent that overflows and other lossy numbers', () => {
    const negativeZero = `${lines[0] as string}\n{"seq":0,"type":"plugin/x","time":1,"data":{"n":-0},"ignorable":true}\n`;
    expect(codecError(() => decodeJsonl(negativeZero)).code).toBe('INVALID_EVENT');
    const overflow = `${lines[0] as string}\n{"seq":0,"type":"plugin/x","time":1,"data":{"n":1e999},"ignorable":true}\n`;
    expect(codecError(() => decodeJsonl(overflow)).code).toBe('INVALID_EVENT');
  });
});

describe('decodeJsonl (V0, read line by line)', () => {
  const v0 = readFileSync(join(import.meta.dirname, '__fixtures__/v0-session.jsonl'), 'utf8');
  const v0Lines = v0.split('\n').slice(0, -1);
  /** The fixture with line `line` (1-based) replaced. */
  const withLine = (line: number, replacement: string) =>
    `${v0Lines.map((text, index) => (index === line - 1 ? replacement : text)).join('\n')}\n`;

  it('reports every invalid V0 event, the first by its line, before asking for the session id', () => {
    const text = withLine(5, '{"seq":4,"type":"tool/call","time":1,"data":{"turn":1}}').replace('"seq":2,', '"seq":7,');
    const error = codecError(() => decodeJsonl(text));
    expect(error).toMatchObject({ code: 'INVALID_EVENT', line: 3 });
    expect(error.message).toContain('(reading a V0 log) (and ');
    expect(error.issues.some((issue) => issue.code === 'INVALID_EVENT' && issue.path[1] === 4)).toBe(true);
  });

  it('asks a sound V0 log for its session id, and migrates it with one', () => {
    expect(codecError(() => decodeJsonl(v0))).toMatchObject({ code: 'INVALID_HEADER', line: 1 });
    expect(decodeJsonl(v0, { sessionId: 'legacy' }).events).toHaveLength(v0Lines.length);
  });

  it('refuses an unparsable V0 line even after an invalid one (a V0 log is parsed before it is judged)', () => {
    const text = withLine(4, '{"seq":3,').replace('"seq":1,', '"seq":9,');
    expect(codecError(() => decodeJsonl(text, { sessionId: 'legacy' }))).toMatchObject({ code: 'MALFORMED_JSON', line: 4 });
  });
});

describe('V4 fork logs', () => {
  /** A parent mid-step: c1 started, c2 declared but not started. */
  const parent = completedTurn(new CodecLog().title('parent'), 1)
    .turnStart(2)
    .user('second question')
    .stepStart(2, 1)
    .assistant(2, 1, 'two calls', ['c1', 'c2'])
    .call(2, 1, 'c1', 'side-effect');
  const cut = parent.nextSeq - 1;

  function child(prefix: readonly SessionEvent[]): CodecLog {
    return new CodecLog(prefix)
      .endSeed(true)
      .synthetic('forked', 2, 1, 'c1', true, 'side-effect')
      .synthetic('forked', 2, 1, 'c2', false)
      .stepEnd(2, 1)
      .turnEnd(2, 'forked');
  }

  it('round-trips the original fork results byte for byte (never the interrupted view)', () => {
    const seed = child(parent.events);
    const written = encoded(childHeader('child', 'session-1', cut), seed.events);
    const decoded = decodeJsonl(written);
    expect(decoded.events).toEqual(seed.events);
    const results = decoded.events.filter((event) => event.type === 'tool/result').slice(-2);
    expect(results.map((event) => (event.data as { message: { id: string } }).message.id)).toEqual([
      `forked-tool-result-c1-${String(cut + 2)}`,
      `forked-tool-result-c2-${String(cut + 3)}`,
    ]);
    expect(JSON.stringify(decoded.events)).not.toContain('interrupted');
    expect(encodeJsonl(decoded)).toBe(written);
  });

  it('validates nested forks with several inherited markers', () => {
    const first = child(parent.events);
    // The child goes on: a new turn, then is forked again mid-step; the grandchild keeps both markers.
    first.turnStart(3).user('third').stepStart(3, 1).assistant(3, 1, '', ['d1']);
    const secondCut = first.nextSeq - 1;
    const grandchild = new CodecLog(first.events).endSeed(true).synthetic('forked', 3, 1, 'd1', false).stepEnd(3, 1).turnEnd(3, 'forked');
    const written = encoded(childHeader('grandchild', 'child', secondCut), grandchild.events);
    const decoded = decodeJsonl(written);
    expect(decoded.events.filter((event) => event.type === 'session/end-seed')).toHaveLength(2);
    expect(decoded.header.inheritedEventCount).toBe(secondCut + 1);
  });

  it('forks that inherit nothing hold only their marker', () => {
    const seed = new CodecLog().endSeed(true);
    expect(decodeJsonl(encoded(childHeader('c', 'p', -1), seed.events)).events).toEqual(seed.events);
  });

  it('refuses a fork child whose inherited marker is missing or misplaced', () => {
    const seed = child(parent.events);
    const header = childHeader('child', 'session-1', cut - 1);
    const error = codecError(() => decodeJsonl(`${JSON.stringify(header)}\n${seed.events.map((e) => JSON.stringify(e)).join('\n')}\n`));
    expect(error.code).toBe('INVALID_RELATIONSHIP');
    expect(error.message).toContain('inherited marker');
  });

  it('refuses lineage fields that disagree', () => {
    const header = { ...childHeader('child', 'session-1', cut), inheritedEventCount: 3 };
    expect(codecError(() => decodeJsonl(`${JSON.stringify(header)}\n`)).code).toBe('INVALID_HEADER');
  });
});

describe('safeDecodeJsonl', () => {
  it('returns the decoded log or the CodecError instead of throwing', () => {
    expect(safeDecodeJsonl(text)).toEqual({ ok: true, value: decodeJsonl(text) });
    const result = safeDecodeJsonl('{"format":"dsh-session","version":99}\n');
    expect(result.ok).toBe(false);
    expect(result.ok ? undefined : result.error.code).toBe('UNSUPPORTED_VERSION');
  });
});
