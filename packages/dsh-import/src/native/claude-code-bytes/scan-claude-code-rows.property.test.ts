/**
 * Property: the WebAssembly scanner (`scanClaudeCodeRows`) reads every line it accepts to the
 * skeleton `JSON.parse` gives, its table equals the text path's reading (`splitNativeLines`:
 * declined lines parsed, blank and torn lines dropped), whether the file is scanned at once or while
 * it is read, and it declines no line Claude Code writes.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { file, generated, uuidsOf } from '../../__fixtures__/mutated-claude-code-file.js';
import { forkNativeTranscript } from '../../index.js';
import { claudeCodeSkeletonOf } from './claude-code-skeleton.js';
import { claudeCodeFileTable } from './claude-code-file-table.js';
import { LINE_END, LINE_INDEX, LINE_START, type ClaudeCodeLineTable } from './claude-code-line-table.js';
import { splitNativeLines } from '../native-line.js';
import { ScanInPlace, scanClaudeCodeRows } from './scan-claude-code-rows.js';
import { nativeFileReader } from './native-file-reader.js';

/** A scan in place for `size` bytes (WebAssembly runs here). */
function startScan(size: number): ScanInPlace {
  const scan = ScanInPlace.start(size);
  if (scan === undefined) throw new Error('no WebAssembly');
  return scan;
}

/** Each line the text path keeps (`splitNativeLines`) as its skeleton and its index. */
function textRowsOf(text: string): unknown[] {
  return splitNativeLines(text).map((line) => ({ skeleton: claudeCodeSkeletonOf(line.value), index: line.index }));
}

/** Each row of `table` as its skeleton and its line's index. */
function indexedRowsOf(table: ClaudeCodeLineTable): unknown[] {
  return Array.from({ length: table.count }, (_, row) => ({ skeleton: table.skeletonAt(row), index: table.at(row, LINE_INDEX) }));
}

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

  it("gives the text path's reading: a row per line it keeps, declined lines parsed, blank and torn lines dropped", () => {
    fc.assert(
      fc.property(file, (options) => {
        const text = generated(options);
        const wasm = claudeCodeFileTable(Buffer.from(text, 'utf8'));
        expect(wasm).toBeDefined();
        expect(indexedRowsOf(wasm?.table as ClaudeCodeLineTable)).toStrictEqual(textRowsOf(text));
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
    const table = claudeCodeFileTable(buffer)?.table as ClaudeCodeLineTable;
    expect(table.count).toBe(6);
    expect(table.stringAt(0, 1)).toBe('\\ud800 is text, not a surrogate');
    expect(table.stringAt(1, 6)).toBe('😀');
    expect(table.stringAt(2, 6)).toBe('\ud800');
    expect(indexedRowsOf(table)).toStrictEqual(textRowsOf(buffer.toString('utf8')));
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

  it('scans a file read into its scan in place where it is (the rows share its memory), and any other bytes in a copy, to the same rows', () => {
    const text = claudeCodeTranscript({ turns: 4 }).text;
    const plain = Buffer.from(text, 'utf8');
    const scan = startScan(plain.length);
    const { bytes } = scan;
    bytes.set(plain);
    // Without the scan, the same bytes are copied: nothing else finds it.
    expect(scanClaudeCodeRows(bytes)?.table.rows.buffer).not.toBe(bytes.buffer);
    const inPlace = scanClaudeCodeRows(bytes, scan);
    expect(inPlace?.table.rows.buffer).toBe(bytes.buffer);
    const copied = scanClaudeCodeRows(plain);
    expect(copied?.table.rows.buffer).not.toBe(plain.buffer);
    expect(rowsOf(inPlace?.table as ClaudeCodeLineTable)).toStrictEqual(rowsOf(copied?.table as ClaudeCodeLineTable));
    // The same scan again is copied: the first scan's memory is its table's.
    expect(scanClaudeCodeRows(bytes, scan)?.table.rows.buffer).not.toBe(bytes.buffer);
  });

  it.each([
    ['a Codex rollout', () => codexTranscript({ turns: 3 }).text, 'seq:4'],
    ['a pi session', () => piTranscript({ turns: 3 }).text, 'seq:3'],
  ])("does not scan %s read in place (its first lines say so), and its reader's fork is the text path's", async (_kind, make, at) => {
    const text = make();
    const plain = Buffer.from(text, 'utf8');
    const scan = startScan(plain.length);
    scan.bytes.set(plain);
    scan.read(plain.length);
    // The scan stopped at its first lines: a scan asked for now reads a copy.
    expect(scanClaudeCodeRows(scan.bytes, scan)?.table.rows.buffer).not.toBe(scan.bytes.buffer);
    const options = { at, sessionId: '0190c0de-0000-7000-8000-000000000001', now: 1_800_000_000_000 };
    const reader = nativeFileReader(plain.length);
    reader.bytes.set(plain);
    reader.onRead(plain.length);
    expect(Buffer.from((await reader.fork(options)).bytes).toString('utf8')).toBe(forkNativeTranscript(text, options).text);
  });

  it('still scans a Claude Code file in place while it is read', () => {
    const plain = Buffer.from(claudeCodeTranscript({ turns: 3 }).text, 'utf8');
    const scan = startScan(plain.length);
    scan.bytes.set(plain);
    scan.read(plain.length);
    expect(scanClaudeCodeRows(scan.bytes, scan)?.table.rows.buffer).toBe(scan.bytes.buffer);
  });

  it('gives the same rows when the scan runs while the file is read (read after each chunk, lines cut across chunks)', () => {
    fc.assert(
      fc.property(file, fc.array(fc.nat(), { minLength: 1, maxLength: 8 }), (options, cuts) => {
        const plain = Buffer.from(generated(options), 'utf8');
        const scan = startScan(plain.length);
        const { bytes } = scan;
        // The file arrives in chunks that end anywhere (mid-line, mid-token), each announced once it is there.
        const ends = [...new Set(cuts.map((cut) => cut % (plain.length + 1)))].sort((a, b) => a - b);
        let at = 0;
        for (const end of [...ends, plain.length]) {
          bytes.set(plain.subarray(at, Math.max(at, end)), at);
          at = Math.max(at, end);
          scan.read(at);
        }
        // A length past the buffer is taken as the buffer's.
        scan.read(plain.length + 4096);
        const whileRead = scanClaudeCodeRows(bytes, scan);
        expect(whileRead?.table.rows.buffer).toBe(bytes.buffer);
        const once = scanClaudeCodeRows(plain);
        expect(rowsOf(whileRead?.table as ClaudeCodeLineTable)).toStrictEqual(rowsOf(once?.table as ClaudeCodeLineTable));
        expect(Array.from(whileRead?.declined ?? [])).toStrictEqual(Array.from(once?.declined ?? []));
        expect(Array.from(whileRead?.sessionIdKeys ?? [])).toStrictEqual(Array.from(once?.sessionIdKeys ?? []));
      }),
      { numRuns: 40 },
    );
  });

  it("gives the child of a reader's fork as views of its own bytes (patched where they stand, none copied), byte for byte the child of the text path", async () => {
    const text = claudeCodeTranscript({ turns: 6, endMidCall: true }).text;
    const uuids = uuidsOf(text);
    for (const at of [uuids.at(-1) as string, uuids[Math.floor(uuids.length / 2)] as string]) {
      const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 1_800_000_000_000 };
      const expected = forkNativeTranscript(text, options);
      const plain = Buffer.from(text, 'utf8');
      const reader = nativeFileReader(plain.length);
      const { bytes } = reader;
      bytes.set(plain);
      const fork = await reader.fork(options);
      expect(Buffer.concat(fork.chunks).toString('utf8')).toBe(expected.text);
      expect(Buffer.from(fork.bytes).toString('utf8')).toBe(expected.text);
      // Every chunk but the closers' is a view of the file's bytes.
      const lines = fork.closedCalls.length > 0 ? fork.chunks.slice(0, -1) : fork.chunks;
      expect(lines.length).toBeGreaterThan(0);
      for (const chunk of lines) expect(chunk.buffer).toBe(bytes.buffer);
    }
  });
});
