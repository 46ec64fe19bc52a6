/**
 * Property (SPEC §27 "A native fork is the same bytes on every path"): `forkNativeFile` gives byte
 * for byte the child, cut and closers of the text path (`forkNativeTranscript`) with WebAssembly (the
 * byte path, in this process) and without it (a `node --jitless` child process) — on generated
 * Claude Code files with lines written twice and the scanner's tricky lines, on Codex and pi files —
 * and a kept line that is not valid UTF-8 is refused `MALFORMED_LINE` on both, never re-encoded.
 */
import { spawnSync } from 'node:child_process';
import { Buffer } from 'node:buffer';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { file, generated, uuidsOf } from '../__fixtures__/mutated-claude-code-file.js';
import { forkNativeFile, forkNativeTranscript, ImportError, type NativeForkOptions } from '../index.js';

const CHILD = fileURLToPath(new URL('../__fixtures__/fork-native-file-child.ts', import.meta.url));
const PACKAGE = fileURLToPath(new URL('../..', import.meta.url));

type Case = { bytes: Buffer; options: NativeForkOptions };
type Outcome = { child: string; facts: unknown } | { error: string; line: number | undefined };

/** `forkNativeFile` of each case, in this process. */
function inProcess({ bytes, options }: Case): Outcome {
  try {
    const { bytes: child, chunks: _chunks, ...facts } = forkNativeFile(bytes, options);
    return { child: Buffer.from(child).toString('base64'), facts };
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    return { error: error.code, line: error.line };
  }
}

/** `forkNativeFile` of each case in a `node --jitless` child: no WebAssembly there. */
function withoutWebAssembly(cases: readonly Case[]): Outcome[] {
  const input = JSON.stringify(cases.map(({ bytes, options }) => ({ bytes: bytes.toString('base64'), options })));
  const run = spawnSync(process.execPath, ['--jitless', '--conditions=@dsh/source', '--import', 'tsx', CHILD], {
    cwd: PACKAGE,
    input,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    env: { ...process.env, NODE_OPTIONS: undefined },
  });
  expect(run.status, run.stderr).toBe(0);
  const { webAssembly, results } = JSON.parse(run.stdout) as { webAssembly: boolean; results: (Outcome & { readerAgrees: boolean })[] };
  expect(webAssembly).toBe(false);
  // A nativeFileReader there forks each case as forkNativeFile does (the text path, loaded when it forks).
  expect(results.filter((result) => !result.readerAgrees)).toEqual([]);
  return results.map(({ readerAgrees: _agrees, ...result }) => result);
}

const NOW = 1_800_000_000_000;
const CHILD_ID = 'c0ffee00-0000-4000-8000-000000000001';

/** Claude Code cases: a generated file (lines written twice among the mutations) cut at one of its uuids. */
function claudeCodeCases(runs: number): Case[] {
  const drawn = fc.sample(fc.tuple(file, fc.nat()), { numRuns: runs, seed: 36_9 });
  return drawn.flatMap(([options, pick]) => {
    const text = generated({ ...options, mutations: [...options.mutations, ['repeated', pick]] });
    const uuids = uuidsOf(text);
    if (uuids.length === 0) return [];
    return [{ bytes: Buffer.from(text, 'utf8'), options: { at: uuids[pick % uuids.length] as string, sessionId: CHILD_ID, now: NOW } }];
  });
}

describe('forkNativeFile with and without WebAssembly', () => {
  it('gives the text path child byte for byte on both paths, lines written twice included', { timeout: 120_000 }, () => {
    const cases = [
      ...claudeCodeCases(40),
      { bytes: Buffer.from(codexTranscript({ turns: 3, endMidCall: true }).text), options: { at: 'seq:5', sessionId: CHILD_ID, now: NOW } },
      {
        bytes: Buffer.from(piTranscript({ turns: 3 }).text),
        options: { at: 'seq:5', sessionId: CHILD_ID, now: NOW, parentFile: '/p.jsonl' },
      },
    ];
    const reference = cases.map(({ bytes, options }) => {
      const { text, ...facts } = forkNativeTranscript(bytes.toString('utf8'), options);
      return { child: Buffer.from(text, 'utf8').toString('base64'), facts };
    });
    // Counted, so a failure says how many children differ on each path (the bytes are in base64).
    const differing = (outcomes: Outcome[]) => outcomes.filter((outcome, i) => !isDeepStrictEqual(outcome, reference[i])).length;
    expect({
      cases: cases.length,
      withWebAssembly: differing(cases.map(inProcess)),
      withoutWebAssembly: differing(withoutWebAssembly(cases)),
    }).toStrictEqual({
      cases: cases.length,
      withWebAssembly: 0,
      withoutWebAssembly: 0,
    });
  });

  it('refuses a kept line that is not valid UTF-8 MALFORMED_LINE on both paths, and copies a line with U+FFFD written as such', () => {
    const lines = claudeCodeTranscript({ turns: 3 }).text.trimEnd().split('\n');
    const at = uuidsOf(lines.join('\n')).at(-1) as string;
    const bad = Buffer.concat([
      Buffer.from(`${lines.slice(0, 4).join('\n')}\n`),
      Buffer.from((lines[4] as string).replace(/\}$/, ',"x":"')),
      Buffer.from([0xc3, 0x28, 0xff]),
      Buffer.from(`"}\n${lines.slice(5).join('\n')}\n`),
    ]);
    const written = Buffer.from(`${lines.join('\n').replace(/\}$/, ',"x":"\uFFFD"}')}\n`);
    const cases: Case[] = [
      { bytes: bad, options: { at, sessionId: CHILD_ID, now: NOW } },
      { bytes: written, options: { at, sessionId: CHILD_ID, now: NOW } },
      // A torn last line cut in the middle of a character is dropped, as any torn line is.
      {
        bytes: Buffer.concat([Buffer.from(`${lines.join('\n')}\n{"type":"user","x":"`), Buffer.from([0xe2, 0x82])]),
        options: { at, sessionId: CHILD_ID, now: NOW },
      },
    ];
    const expected = [
      { error: 'MALFORMED_LINE', line: 5 },
      {
        child: Buffer.from(forkNativeTranscript(written.toString('utf8'), cases[1]?.options as NativeForkOptions).text).toString('base64'),
      },
      { child: Buffer.from(forkNativeTranscript(`${lines.join('\n')}\n`, cases[2]?.options as NativeForkOptions).text).toString('base64') },
    ];
    for (const outcomes of [cases.map(inProcess), withoutWebAssembly(cases)]) {
      expect(outcomes[0]).toStrictEqual(expected[0]);
      expect(outcomes[1]).toMatchObject(expected[1] as object);
      expect(outcomes[2]).toMatchObject(expected[2] as object);
    }
  });
});
