/**
 * `nativeFileReader`: the file read into the reader's bytes and forked by it gives what
 * `forkNativeFile` gives for the same bytes — on the byte path (cut on the entry index), through
 * the general cut (entry uuids that repeat) and on the text path it loads only then (`seq:N`, a
 * Codex rollout, a pi session) — and a reader forks once.
 */
import { Buffer } from 'node:buffer';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { uuidsOf } from '../../__fixtures__/mutated-claude-code-file.js';
import { forkNativeFile, forkNativeTranscript, ImportError } from '../../index.js';
import { nativeFileReader } from './native-file-reader.js';

const NOW = 1_800_000_000_000;

/** `text` read into a reader in chunks of `chunk` bytes, `onRead` after each. */
function readerOf(text: string, chunk: number) {
  const plain = Buffer.from(text, 'utf8');
  const reader = nativeFileReader(plain.length);
  for (let at = 0; at < plain.length; at += chunk) {
    reader.bytes.set(plain.subarray(at, at + chunk), at);
    reader.onRead(Math.min(at + chunk, plain.length));
  }
  return reader;
}

/** A fork's child as text and its facts. */
function childOf(fork: { bytes: Uint8Array; chunks: readonly Uint8Array[] }) {
  const { bytes, chunks: _chunks, ...facts } = fork;
  return { text: Buffer.from(bytes).toString('utf8'), facts };
}

/** A Claude Code file whose second entry repeats the first's uuid (the entry index declines it; the general cut takes it). */
function repeatedUuidFile(): { text: string; at: string } {
  const values = claudeCodeTranscript({ turns: 3 })
    .text.trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
  const entries = values.filter((value) => typeof value.uuid === 'string');
  (entries[2] as Record<string, unknown>).uuid = (entries[1] as Record<string, unknown>).uuid;
  return { text: `${values.map((value) => JSON.stringify(value)).join('\n')}\n`, at: entries.at(-1)?.uuid as string };
}

describe('nativeFileReader', () => {
  const claude = claudeCodeTranscript({ turns: 5, endMidCall: true }).text;
  it.each([
    ['a Claude Code file cut at its last entry (the byte path)', claude, uuidsOf(claude).at(-1) as string],
    ['a Claude Code file cut mid-file (the byte path)', claude, uuidsOf(claude)[7] as string],
    ['a Claude Code file cut at seq:9 (the text path)', claude, 'seq:9'],
    ['a Claude Code file whose entry uuids repeat (the general cut)', repeatedUuidFile().text, repeatedUuidFile().at],
    ['a Codex rollout (the text path)', codexTranscript({ turns: 3 }).text, 'seq:4'],
    ['a pi session (the text path)', piTranscript({ turns: 3 }).text, 'seq:3'],
  ])('forks %s as forkNativeFile forks the same bytes', async (_kind, text, at) => {
    const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: NOW };
    const expected = childOf(forkNativeFile(Buffer.from(text, 'utf8'), options));
    for (const chunk of [64, 1 << 20]) expect(childOf(await readerOf(text, chunk).fork(options))).toStrictEqual(expected);
  });

  it('ends a child cut mid-call with the closers the text path writes (the closers load only for such a cut)', async () => {
    const options = { at: uuidsOf(claude).at(-1) as string, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: NOW };
    const reference = forkNativeTranscript(claude, options);
    expect(reference.closedCalls.length).toBeGreaterThan(0);
    const fork = await readerOf(claude, 64).fork(options);
    const child = childOf(fork);
    expect(child.text).toBe(reference.text);
    expect(fork.closedCalls).toStrictEqual(reference.closedCalls);
    expect(child.text.trimEnd().split('\n').at(-1)).toContain('"is_error":true');
  });

  it('refuses a second fork of the same reader (the first wrote its child over the bytes) with INVALID_OPTION', async () => {
    const reader = readerOf(claude, 1 << 20);
    const options = { at: uuidsOf(claude).at(-1) as string, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: NOW };
    await reader.fork(options);
    const second = await reader.fork(options).catch((error: unknown) => error);
    expect(ImportError.is(second) && second.code).toBe('INVALID_OPTION');
    expect((second as Error).message).toMatch(/expected one fork per reader/);
  });

  it('refuses an empty at with INVALID_OPTION before reading the bytes', async () => {
    const error = await readerOf(claude, 1 << 20)
      .fork({ at: '', sessionId: 'c1', now: NOW })
      .catch((caught: unknown) => caught);
    expect(ImportError.is(error) && error.code).toBe('INVALID_OPTION');
  });
});
