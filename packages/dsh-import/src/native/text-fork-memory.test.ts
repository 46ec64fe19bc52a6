/**
 * SPEC §24's bound on pi and Codex native forks (the text path parses every line): a file whose
 * estimated need is past the bound is refused `FILE_TOO_LARGE` naming what it would need and the
 * bound, before a line past the first 60 is parsed (counted: `JSON.parse` calls); within the bound
 * the fork is the text's fork byte for byte.
 */
import { Buffer } from 'node:buffer';
import { codexTranscript, piTranscript } from '@dsh/test-utils';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { forkNativeFile, forkNativeTranscript, ImportError } from '../index.js';
import { lineCount } from './claude-code-bytes/fork-memory-bound.js';
import { textForkMemoryNeed } from './text-fork-memory.js';

const FILES = [
  ['pi', piTranscript({ turns: 60 }).text, 'seq:40'],
  ['pi v1', piTranscript({ turns: 60, version: 1 }).text, 'seq:40'],
  ['codex', codexTranscript({ turns: 60, ordinals: true }).text, '50'],
] as const;

const options = { sessionId: '019e9000-0000-7000-8000-000000000001', now: 0 };

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the memory bound of a pi or Codex native fork', () => {
  it.each(FILES)('refuses FILE_TOO_LARGE naming the need and the bound, before parsing past the first lines (%s)', (name, text, at) => {
    const bytes = Buffer.from(text);
    const format = name === 'codex' ? 'codex' : 'pi';
    const need = textForkMemoryNeed(format, bytes.length, lineCount(bytes), at.startsWith('seq:'));
    const parse = vi.spyOn(JSON, 'parse');
    let refusal: unknown;
    try {
      forkNativeFile(bytes, { ...options, at, maxMemoryBytes: need - 1 });
    } catch (error) {
      refusal = error;
    }
    expect(ImportError.is(refusal) && refusal.code).toBe('FILE_TOO_LARGE');
    expect((refusal as Error).message).toMatch(
      new RegExp(
        `this \\d+\\.\\d MiB ${format} file of ${String(lineCount(bytes))} lines would need about \\d+\\.\\d MiB .*expected at most \\d+\\.\\d MiB \\(maxMemoryBytes\\)`,
      ),
    );
    expect(lineCount(bytes)).toBeGreaterThan(200);
    // The format is told from the first lines (by the byte path, then by this check): the rest is never parsed.
    expect(parse.mock.calls.length).toBeLessThanOrEqual(60);
  });

  it.each(FILES)('forks within the bound as the text is forked, byte for byte (%s)', (name, text, at) => {
    const bytes = Buffer.from(text);
    const format = name === 'codex' ? 'codex' : 'pi';
    const need = textForkMemoryNeed(format, bytes.length, lineCount(bytes), at.startsWith('seq:'));
    const fork = forkNativeFile(bytes, { ...options, at, maxMemoryBytes: need });
    expect(Buffer.from(fork.bytes).toString('utf8')).toBe(forkNativeTranscript(text, { ...options, at }).text);
  });

  it('asks more of a seq:N cut than of a REF cut (it holds the whole line reading too), and more a line of pi than of Codex', () => {
    expect(textForkMemoryNeed('pi', 60e6, 160_000, true)).toBeGreaterThan(2 * textForkMemoryNeed('pi', 60e6, 160_000, false));
    expect(textForkMemoryNeed('pi', 60e6, 160_000, false)).toBeGreaterThan(textForkMemoryNeed('codex', 60e6, 160_000, false));
    // A 60 MB file of 380-byte pi lines is past 4× its size; one of 3,000-byte Codex lines is within it.
    expect(textForkMemoryNeed('pi', 60e6, 160_000, false)).toBeGreaterThan(4 * 60e6);
    expect(textForkMemoryNeed('codex', 60e6, 20_000, false)).toBeLessThan(4 * 60e6);
  });
});
