/**
 * Property: the byte path of the native fork (`forkNativeFile` on a Claude Code file: lines read
 * through their skeleton, the chain copied as byte ranges) gives exactly the child, cut, closers and
 * counts of the text path (`forkNativeTranscript`: every line parsed), on generated Claude Code files
 * whose lines are varied the ways the scanner must not be fooled by — escaped quotes and unicode in
 * strings, keys in other orders or spelled with escapes, nested objects holding keys named like the
 * scanned ones, duplicate keys, whitespace, ids that are not strings.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript } from '../index.js';
import { claudeCodeSkeletonOf } from './claude-code-skeleton.js';
import { scanClaudeCodeSkeleton } from './scan-claude-code-skeleton.js';
import { forkClaudeCodeBytes } from './fork-claude-code-file.js';
import { claudeCodeFileTable } from './claude-code-file-table.js';
import { LINE_END, LINE_INDEX, LINE_START, type ClaudeCodeLineTable } from './claude-code-line-table.js';
import { nativeFileBuffer, nativeFileRead, scanClaudeCodeRows } from './scan-claude-code-rows.js';

/** Ways to rewrite one line that keep it a Claude Code line (or make it one the scanner declines). */
const MUTATIONS = [
  'none',
  'reorder',
  'strings',
  'nested',
  'escapedKey',
  'duplicate',
  'spaced',
  'numberId',
  'interruptedEscape',
  'blankBefore',
] as const;
type Mutation = (typeof MUTATIONS)[number];

const TRICKY = 'say "uuid":"fake" \\ back\\slash é ü 😀 \u2028 end';

function reorder(value: Record<string, unknown>, seed: number): Record<string, unknown> {
  const keys = Object.keys(value);
  // A deterministic shuffle by the seed.
  for (let i = keys.length - 1; i > 0; i--) {
    const j = (seed * 7919 + i * 104729) % (i + 1);
    [keys[i], keys[j]] = [keys[j] as string, keys[i] as string];
  }
  return Object.fromEntries(keys.map((key) => [key, value[key]]));
}

function blocksOf(value: Record<string, unknown>): Record<string, unknown>[] | undefined {
  const message = value.message as { content?: unknown } | undefined;
  return Array.isArray(message?.content) ? (message.content as Record<string, unknown>[]) : undefined;
}

/** `raw` rewritten by `mutation` (seeded), as one or more lines. */
function mutate(raw: string, mutation: Mutation, seed: number): string[] {
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(raw) as Record<string, unknown>;
  } catch {
    return [raw];
  }
  switch (mutation) {
    case 'none':
      return [raw];
    case 'reorder':
      return [JSON.stringify(reorder(value, seed))];
    case 'strings': {
      const blocks = blocksOf(value);
      for (const block of blocks ?? []) {
        if (typeof block.text === 'string') block.text = `${block.text} ${TRICKY}`;
        if (block.type === 'tool_result') block.content = TRICKY;
      }
      if (typeof (value.message as { content?: unknown } | undefined)?.content === 'string')
        (value.message as { content: string }).content += TRICKY;
      return [JSON.stringify(value)];
    }
    case 'nested': {
      // Keys named like the scanned ones, nested where the scanner must skip them.
      const decoy = {
        uuid: 'decoy-uuid',
        parentUuid: 'decoy-parent',
        type: 'assistant',
        isSidechain: true,
        sessionId: value.sessionId,
        message: { id: 'decoy', content: [{ type: 'tool_use', id: 'decoy-call', name: 'Bash' }] },
      };
      const blocks = blocksOf(value);
      const call = blocks?.find((block) => block.type === 'tool_use');
      if (call !== undefined) call.input = { ...(call.input as object), decoy };
      return [JSON.stringify({ toolUseResult: decoy, ...value, extra: [decoy, [decoy], { deeper: decoy }] })];
    }
    case 'escapedKey':
      // `\u0075uid` is the key "uuid"; `\u0074ype` the key "type".
      return [raw.replace('"uuid":', '"\\u0075uid":').replace('"type":', '"\\u0074ype":')];
    case 'duplicate':
      // JSON.parse keeps the last value of a key written twice.
      return [raw.replace(/^\{/, '{"isSidechain":true,"cwd":"/first",').replace(/\}$/, ',"cwd":"/elsewhere"}')];
    case 'spaced':
      return [raw.replace(/^\{/, '{ ').replace(/\}$/, ' }')];
    case 'numberId': {
      const blocks = blocksOf(value);
      const call = blocks?.find((block) => block.type === 'tool_use' || block.type === 'tool_result');
      if (call?.type === 'tool_use') call.id = 1e3 + seed;
      else if (call !== undefined) call.tool_use_id = 1e3 + seed;
      return [JSON.stringify(value)];
    }
    case 'interruptedEscape':
      // An escaped `[` still spells Claude Code's interruption marker once decoded.
      if (value.type === 'user' && typeof (value.message as { content?: unknown } | undefined)?.content === 'string') {
        return [JSON.stringify(value).replace(/"content":"(?:[^"\\]|\\.)*"/, '"content":"\\u005bRequest interrupted by user]"')];
      }
      return [raw];
    case 'blankBefore':
      return ['   ', raw];
  }
}

type FileOptions = {
  turns: number;
  branchAtTurn: number | undefined;
  compactInTurn: number | undefined;
  endMidCall: boolean;
  tornTail: boolean;
  currentLineTypes: boolean;
  mutations: [Mutation, number][];
};

const file: fc.Arbitrary<FileOptions> = fc.record({
  turns: fc.integer({ min: 1, max: 6 }),
  branchAtTurn: fc.option(fc.integer({ min: 2, max: 6 }), { nil: undefined }),
  compactInTurn: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  endMidCall: fc.boolean(),
  tornTail: fc.boolean(),
  currentLineTypes: fc.boolean(),
  mutations: fc.array(fc.tuple(fc.constantFrom(...MUTATIONS), fc.nat({ max: 1000 })), { minLength: 1, maxLength: 40 }),
});

/** A generated file with each line rewritten by the next mutation (cycling). */
function generated(options: FileOptions): string {
  const { mutations, ...shape } = options;
  const { text } = claudeCodeTranscript({
    ...shape,
    ...(shape.branchAtTurn === undefined || shape.branchAtTurn > shape.turns ? { branchAtTurn: undefined } : {}),
  } as Parameters<typeof claudeCodeTranscript>[0]);
  const torn = !text.endsWith('\n');
  const lines = text.split('\n');
  const last = torn ? lines.pop() : undefined;
  if (!torn) lines.pop();
  const out = lines.flatMap((line, index) => {
    const [mutation, seed] = mutations[index % mutations.length] as [Mutation, number];
    return mutate(line, mutation, seed);
  });
  return `${out.join('\n')}\n${last ?? ''}`;
}

function uuidsOf(text: string): string[] {
  const uuids: string[] = [];
  for (const line of text.split('\n')) {
    try {
      const value = JSON.parse(line) as { uuid?: unknown };
      if (typeof value.uuid === 'string') uuids.push(value.uuid);
    } catch {
      // a blank or torn line
    }
  }
  return uuids;
}

describe('forkNativeFile (Claude Code, byte path)', () => {
  it('gives byte for byte the child, cut, closers and counts of forkNativeTranscript, at any entry uuid', () => {
    fc.assert(
      fc.property(file, fc.nat(), (options, pick) => {
        const text = generated(options);
        const uuids = uuidsOf(text);
        fc.pre(uuids.length > 0);
        const at = uuids[pick % uuids.length] as string;
        const bytes = Buffer.from(text, 'utf8');
        const forkOptions = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 1_800_000_000_000 };
        const reference = forkNativeTranscript(text, forkOptions);
        // The byte path itself made this fork (it did not hand it to the text path).
        const fast = forkClaudeCodeBytes(bytes, forkOptions);
        expect(fast).toBeDefined();
        const { text: referenceText, ...referenceFacts } = reference;
        const { bytes: fastBytes, ...fastFacts } = fast ?? forkNativeFile(bytes, forkOptions);
        expect(Buffer.from(fastBytes).toString('utf8')).toBe(referenceText);
        expect(Buffer.from(fastBytes).equals(Buffer.from(referenceText, 'utf8'))).toBe(true);
        expect(fastFacts).toStrictEqual(referenceFacts);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the bytes of forkNativeTranscript when the child id is not as long as the source id (the replacement moves the bytes after it)', () => {
    fc.assert(
      fc.property(
        file,
        fc.nat(),
        fc.constantFrom('c1', 'child-session-with-a-much-longer-id-than-a-uuid-has'),
        (options, pick, sessionId) => {
          const text = generated(options);
          const uuids = uuidsOf(text);
          fc.pre(uuids.length > 0);
          const forkOptions = { at: uuids[pick % uuids.length] as string, sessionId, now: 1_800_000_000_000 };
          const fast = forkClaudeCodeBytes(Buffer.from(text, 'utf8'), forkOptions);
          expect(fast).toBeDefined();
          expect(Buffer.from(fast?.bytes ?? []).toString('utf8')).toBe(forkNativeTranscript(text, forkOptions).text);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('replaces the session id wherever the text path does: nested, in an array, after an escaped quote in a longer key', () => {
    const lines = claudeCodeTranscript({ turns: 3 }).text.trimEnd().split('\n');
    const first = JSON.parse(lines.find((line) => line.includes('"sessionId"')) as string) as { sessionId: string };
    const id = JSON.stringify(first.sessionId);
    const extra = `"k\\"sessionId":${id},"deep":[{"sessionId":${id}},{"a":{"sessionId":${id},"xsessionId":${id}}}]`;
    const changed = lines.map((line, index) => (index % 3 === 1 ? line.replace(/\}$/, `,${extra}}`) : line));
    const text = `${changed.join('\n')}\n`;
    const at = uuidsOf(text).at(-1) as string;
    const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 0 };
    const fast = forkClaudeCodeBytes(Buffer.from(text, 'utf8'), options);
    expect(fast).toBeDefined();
    const expected = forkNativeTranscript(text, options).text;
    expect(Buffer.from(fast?.bytes ?? []).toString('utf8')).toBe(expected);
    // Each of those places was replaced (the longer key `xsessionId` is not the field).
    expect(expected.split(`"sessionId":${id}`)).toHaveLength(1);
    expect(expected).toContain(`"xsessionId":${id}`);
  });

  it('refuses, as forkNativeTranscript does, a line whose string holds what JSON.parse refuses (MALFORMED_LINE, that line)', () => {
    const lines = claudeCodeTranscript({ turns: 4 }).text.trimEnd().split('\n');
    const at = (JSON.parse(lines[lines.length - 1] as string) as { uuid: string }).uuid;
    for (const bad of ['"tab\there"', '"\\x41"', '"\\u12"']) {
      const broken = [...lines];
      // Past the first lines (those are parsed whole to tell the format).
      broken[29] = (broken[29] as string).replace(/\}$/, `,"x":${bad}}`);
      const text = `${broken.join('\n')}\n`;
      const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 0 };
      expect(() => forkNativeTranscript(text, options)).toThrow(expect.objectContaining({ code: 'MALFORMED_LINE', line: 30 }));
      expect(() => forkNativeFile(Buffer.from(text, 'utf8'), options)).toThrow(
        expect.objectContaining({ code: 'MALFORMED_LINE', line: 30 }),
      );
    }
  });

  it('reads a line the scanner accepts to the same skeleton as JSON.parse, and accepts the lines Claude Code writes', () => {
    let scanned = 0;
    let lines = 0;
    fc.assert(
      fc.property(file, (options) => {
        const text = generated(options);
        const buffer = Buffer.from(text, 'utf8');
        let start = 0;
        for (let end = buffer.indexOf(10); end >= 0; start = end + 1, end = buffer.indexOf(10, start)) {
          const raw = buffer.toString('utf8', start, end);
          if (raw.trim() === '') continue;
          lines++;
          const skeleton = scanClaudeCodeSkeleton(buffer, start, end);
          if (skeleton === undefined) continue;
          scanned++;
          expect(skeleton).toStrictEqual(claudeCodeSkeletonOf(JSON.parse(raw) as Record<string, unknown>));
        }
      }),
      { numRuns: 40 },
    );
    // Most lines are read by the scanner, not handed to JSON.parse.
    expect(scanned).toBeGreaterThan(lines / 2);
  });
});

/** Each row of `table` as its skeleton and its line's place. */
function rowsOf(table: ClaudeCodeLineTable): unknown[] {
  return Array.from({ length: table.count }, (_, row) => ({
    skeleton: table.skeletonAt(row),
    place: [table.at(row, LINE_INDEX), table.at(row, LINE_START), table.at(row, LINE_END)],
  }));
}

describe('scanClaudeCodeRows (the WebAssembly scanner)', () => {
  it('reads every line it accepts to the skeleton JSON.parse gives, and declines no line Claude Code writes', () => {
    let declined = 0;
    let rows = 0;
    fc.assert(
      fc.property(file, (options) => {
        const buffer = Buffer.from(generated(options), 'utf8');
        const scanned = scanClaudeCodeRows(buffer);
        expect(scanned).toBeDefined();
        if (scanned === undefined) return;
        const { table } = scanned;
        const isDeclined = new Set(scanned.declined);
        for (let row = 0; row < table.count; row++) {
          if (isDeclined.has(row)) continue;
          const raw = buffer.toString('utf8', table.at(row, LINE_START), table.at(row, LINE_END));
          expect(table.skeletonAt(row)).toStrictEqual(claudeCodeSkeletonOf(JSON.parse(raw) as Record<string, unknown>));
        }
        const unmutated = Buffer.from(generated({ ...options, mutations: [['none', 0]] }), 'utf8');
        const plain = scanClaudeCodeRows(unmutated);
        rows += plain?.table.count ?? 0;
        // A torn last line is the only one a file as Claude Code writes it may have declined.
        declined += (plain?.declined.length ?? 0) - (options.tornTail ? 1 : 0);
      }),
      { numRuns: 40 },
    );
    expect(rows).toBeGreaterThan(0);
    expect(declined).toBeLessThanOrEqual(0);
  });

  it('gives the table and session id places the scanner in JavaScript gives, declined lines parsed, blank and torn lines dropped', () => {
    fc.assert(
      fc.property(file, (options) => {
        const buffer = Buffer.from(generated(options), 'utf8');
        const wasm = claudeCodeFileTable(buffer);
        const script = claudeCodeFileTable(buffer, { webAssembly: false });
        expect(rowsOf(wasm.table)).toStrictEqual(rowsOf(script.table));
        expect(Array.from(wasm.sessionIdKeys)).toStrictEqual(Array.from(script.sessionIdKeys));
      }),
      { numRuns: 40 },
    );
  });

  it('declines what it does not read itself: an escaped lone surrogate, nesting past 512, whitespace, a CRLF line end', () => {
    const line = (extra: string) => `{"type":"user","uuid":"u1","sessionId":"s"${extra},"message":{"content":"hi"}}`;
    const lines = [
      line(',"uuid":"\\\\ud800 is text, not a surrogate"'),
      line(',"cwd":"\\ud83d\\ude00"'),
      line(',"cwd":"\\ud800"'),
      line(`,"deep":${'['.repeat(600)}${']'.repeat(600)}`),
      line(', "cwd":"/x"'),
      `${line('')}\r`,
    ];
    const buffer = Buffer.from(`${lines.join('\n')}\n`, 'utf8');
    const scanned = scanClaudeCodeRows(buffer);
    expect(Array.from(scanned?.declined ?? [])).toStrictEqual([2, 3, 4, 5]);
    const { table } = claudeCodeFileTable(buffer);
    expect(table.count).toBe(6);
    expect(table.stringAt(0, 1)).toBe('\\ud800 is text, not a surrogate');
    expect(table.stringAt(1, 6)).toBe('😀');
    expect(table.stringAt(2, 6)).toBe('\ud800');
    expect(rowsOf(table)).toStrictEqual(rowsOf(claudeCodeFileTable(buffer, { webAssembly: false }).table));
  });

  it('scans again with more room when a line holds more blocks, keys or escaped text than the first guess', () => {
    const blocks = Array.from({ length: 3000 }, (_, i) => ({ type: 'tool_use', id: `call-"${String(i)}"\n`, name: `Tool${String(i)}` }));
    const text = `${JSON.stringify({ type: 'assistant', uuid: 'a1', sessionId: 's', message: { id: 'm', content: blocks } })}\n`;
    const buffer = Buffer.from(text, 'utf8');
    const scanned = scanClaudeCodeRows(buffer);
    expect(scanned?.declined.length).toBe(0);
    expect(scanned?.table.skeletonAt(0)).toStrictEqual(claudeCodeSkeletonOf(JSON.parse(text) as Record<string, unknown>));
    // Many more lines than the bytes suggest (the guess is a row per 128 bytes).
    const tiny = Buffer.from('{"type":"x"}\n'.repeat(20_000), 'utf8');
    const rows = scanClaudeCodeRows(tiny);
    expect(rows?.table.count).toBe(20_000);
    expect(rows?.table.skeletonAt(19_999).type).toBe('x');
  });

  it('scans a file read into nativeFileBuffer where it is (the rows share its memory), and any other bytes in a copy, to the same rows', () => {
    const text = claudeCodeTranscript({ turns: 4 }).text;
    const plain = Buffer.from(text, 'utf8');
    const bytes = nativeFileBuffer(plain.length);
    bytes.set(plain);
    const inPlace = scanClaudeCodeRows(bytes);
    expect(inPlace?.table.rows.buffer).toBe(bytes.buffer);
    const copied = scanClaudeCodeRows(plain);
    expect(copied?.table.rows.buffer).not.toBe(plain.buffer);
    expect(rowsOf(inPlace?.table as ClaudeCodeLineTable)).toStrictEqual(rowsOf(copied?.table as ClaudeCodeLineTable));
    // The same buffer again is copied: the first scan's memory is its table's.
    expect(scanClaudeCodeRows(bytes)?.table.rows.buffer).not.toBe(bytes.buffer);
  });

  it('gives the same rows when the scan runs while the file is read (nativeFileRead after each chunk, lines cut across chunks)', () => {
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (options, cuts) => {
        const plain = Buffer.from(generated(options), 'utf8');
        const bytes = nativeFileBuffer(plain.length);
        // The file arrives in chunks that end anywhere (mid-line, mid-token), each announced once it is there.
        const ends = [...new Set(cuts.map((cut) => cut % (plain.length + 1)))].sort((a, b) => a - b);
        let at = 0;
        for (const end of [...ends, plain.length]) {
          bytes.set(plain.subarray(at, Math.max(at, end)), at);
          at = Math.max(at, end);
          nativeFileRead(bytes, at);
        }
        const whileRead = scanClaudeCodeRows(bytes);
        expect(whileRead?.table.rows.buffer).toBe(bytes.buffer);
        const once = scanClaudeCodeRows(plain);
        expect(rowsOf(whileRead?.table as ClaudeCodeLineTable)).toStrictEqual(rowsOf(once?.table as ClaudeCodeLineTable));
        expect(Array.from(whileRead?.declined ?? [])).toStrictEqual(Array.from(once?.declined ?? []));
        expect(Array.from(whileRead?.sessionIdKeys ?? [])).toStrictEqual(Array.from(once?.sessionIdKeys ?? []));
      }),
      { numRuns: 40 },
    );
  });

  it('writes the child over the bytes of a nativeFileBuffer (no fresh buffer), byte for byte the child of the text path; closers that do not fit get a buffer of their own', () => {
    const text = claudeCodeTranscript({ turns: 6, endMidCall: true }).text;
    const uuids = uuidsOf(text);
    for (const at of [uuids.at(-1) as string, uuids[Math.floor(uuids.length / 2)] as string]) {
      const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 1_800_000_000_000 };
      const expected = forkNativeTranscript(text, options).text;
      const plain = Buffer.from(text, 'utf8');
      const bytes = nativeFileBuffer(plain.length);
      bytes.set(plain);
      const fork = forkNativeFile(bytes, options);
      expect(Buffer.from(fork.bytes).toString('utf8')).toBe(expected);
      // In the middle of the file the dropped lines leave room for the closers; at its end they do not.
      if (at !== uuids.at(-1)) expect(fork.bytes.buffer).toBe(bytes.buffer);
    }
  });
});
