/**
 * The native fork's memory bound (SPEC §24): a Claude Code file of tiny lines, whose rows overflow
 * the scanner's first guess, is counted and refused `FILE_TOO_LARGE` — naming its lines, what the
 * fork would need and the bound — when that is past `maxMemoryBytes` (lowered here: the default is
 * 4× the file's size, at least 64 MiB), and forked as the text path forks it when within.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript, ImportError } from '../../index.js';
import { FORK_BYTES_PER_LINE, forkMemoryNeed, lineCount } from './fork-memory-bound.js';
import { nativeFileReader } from './native-file-reader.js';

const QUIET = '{"type":"progress"}\n';

/** `entries` user/assistant entries, each followed by nine tiny quiet lines; the last entry's uuid. */
function tinyLines(entries: number): { text: string; last: string } {
  const lines: string[] = [];
  for (let i = 0; i < entries; i++) {
    const parent = i === 0 ? null : `u${String(i - 1)}`;
    const message =
      i % 2 === 0 ? { role: 'user', content: 'x' } : { id: `m${String(i)}`, role: 'assistant', content: [{ type: 'text', text: 'y' }] };
    lines.push(
      JSON.stringify({ type: i % 2 === 0 ? 'user' : 'assistant', uuid: `u${String(i)}`, parentUuid: parent, sessionId: 's1', message }),
    );
    lines.push(QUIET.repeat(9).trimEnd());
  }
  return { text: `${lines.join('\n')}\n`, last: `u${String(entries - 1)}` };
}

const OPTIONS = { sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 1_800_000_000_000 };

async function readerFork(text: string, options: Parameters<typeof forkNativeFile>[1]) {
  const plain = Buffer.from(text, 'utf8');
  const reader = nativeFileReader(plain.length);
  reader.bytes.set(plain);
  reader.onRead(plain.length);
  return reader.fork(options);
}

describe("the native fork's memory bound", () => {
  const { text, last } = tinyLines(4000);
  const size = Buffer.byteLength(text);
  const lines = 40_000;

  it('counts the lines of a file, a last line without a newline too', () => {
    expect(lineCount(Buffer.from(text))).toBe(lines);
    expect(lineCount(Buffer.from('{"a":1}\n{"b":2}'))).toBe(2);
    expect(lineCount(Buffer.alloc(0))).toBe(0);
  });

  it('refuses a file of tiny lines past a lowered bound FILE_TOO_LARGE, naming its lines, what it would need and the bound', async () => {
    const need = forkMemoryNeed(size, lines);
    const maxMemoryBytes = 4 * size;
    expect(need).toBeGreaterThan(maxMemoryBytes);
    for (const fork of [
      () => readerFork(text, { ...OPTIONS, at: last, maxMemoryBytes }),
      () => Promise.resolve().then(() => forkNativeFile(Buffer.from(text), { ...OPTIONS, at: last, maxMemoryBytes })),
    ]) {
      const error = await fork().catch((caught: unknown) => caught);
      expect(ImportError.is(error) && error.code).toBe('FILE_TOO_LARGE');
      const mib = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MiB`;
      expect((error as Error).message).toBe(
        `a native fork of this ${mib(size)} file of ${String(lines)} lines would need about ${mib(need)} of memory (2¼× the file and ${String(FORK_BYTES_PER_LINE)} bytes a line); expected at most ${mib(maxMemoryBytes)} (maxMemoryBytes)`,
      );
    }
  });

  it('forks the same file within its bound (the default: at least 64 MiB) as the text path does', async () => {
    const expected = forkNativeTranscript(text, { ...OPTIONS, at: last }).text;
    expect(Buffer.from((await readerFork(text, { ...OPTIONS, at: last })).bytes).toString('utf8')).toBe(expected);
    const within = forkMemoryNeed(size, lines);
    expect(Buffer.from(forkNativeFile(Buffer.from(text), { ...OPTIONS, at: last, maxMemoryBytes: within }).bytes).toString('utf8')).toBe(
      expected,
    );
  });

  it("refuses a file whose lines fit the scanner's first guess (a line per 128 bytes or more) past the bound too, before the fork makes memory per line", async () => {
    // Entries of about 200 bytes and no quiet lines: the scan fits, the lines alone need more than 4× the file.
    const entries: string[] = [];
    for (let i = 0; i < 4000; i++)
      entries.push(
        JSON.stringify({
          type: 'user',
          uuid: `u${String(i)}`,
          parentUuid: i === 0 ? null : `u${String(i - 1)}`,
          sessionId: 's1',
          message: { role: 'user', content: 'x'.repeat(90) },
        }),
      );
    const fitting = `${entries.join('\n')}\n`;
    const bytes = Buffer.byteLength(fitting);
    expect(bytes / entries.length).toBeGreaterThan(128);
    const maxMemoryBytes = 4 * bytes;
    expect(forkMemoryNeed(bytes, entries.length)).toBeGreaterThan(maxMemoryBytes);
    for (const fork of [
      () => readerFork(fitting, { ...OPTIONS, at: 'u3999', maxMemoryBytes }),
      () => Promise.resolve().then(() => forkNativeFile(Buffer.from(fitting), { ...OPTIONS, at: 'u3999', maxMemoryBytes })),
    ]) {
      const error = await fork().catch((caught: unknown) => caught);
      expect(ImportError.is(error) && error.code).toBe('FILE_TOO_LARGE');
      expect((error as Error).message).toContain(`file of ${String(entries.length)} lines would need about`);
    }
    // Within its bound it forks as the text path does.
    const within = forkMemoryNeed(bytes, entries.length);
    expect(
      Buffer.from(forkNativeFile(Buffer.from(fitting), { ...OPTIONS, at: 'u3999', maxMemoryBytes: within }).bytes).toString('utf8'),
    ).toBe(forkNativeTranscript(fitting, { ...OPTIONS, at: 'u3999' }).text);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses maxMemoryBytes %s with INVALID_OPTION', (maxMemoryBytes) => {
    const error = (() => {
      try {
        return forkNativeFile(Buffer.from(text), { ...OPTIONS, at: last, maxMemoryBytes });
      } catch (caught) {
        return caught;
      }
    })();
    expect(ImportError.is(error) && error.code).toBe('INVALID_OPTION');
  });
});
