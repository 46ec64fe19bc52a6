/**
 * Property: a pi or Codex file forked from its bytes (`forkNativeFile`: lines split from the bytes,
 * kept lines copied as views of them) gives byte for byte the child, facts and errors of the fork of
 * its decoded text (`forkNativeTranscript`) — over generated files (pi versions 1 and 3 with
 * branches and compactions, Codex with and without ordinals) with blank, malformed, non-ASCII and
 * torn lines, cut at entry ids, ordinals and seqs.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript, ImportError, type NativeForkOptions } from '../index.js';
import { splitNativeBytes } from './native-byte-lines.js';
import { splitNativeLines } from './native-line.js';

const NOW = 1_800_000_000_000;
const CHILD_ID = '019f0000-0000-7000-8000-000000000001';

type Outcome = { child: string; facts: unknown } | { error: string; line: number | undefined };

function outcomeOf(fork: () => { child: Uint8Array; facts: unknown }): Outcome {
  try {
    const { child, facts } = fork();
    return { child: Buffer.from(child).toString('utf8'), facts };
  } catch (error) {
    if (!ImportError.is(error)) throw error;
    return { error: error.code, line: error.line };
  }
}

const fileArbitrary = fc.record({
  kind: fc.constantFrom('pi1', 'pi3', 'codex', 'codex-ordinals'),
  turns: fc.integer({ min: 1, max: 8 }),
  endMidCall: fc.boolean(),
  tornTail: fc.boolean(),
  branch: fc.boolean(),
  compact: fc.boolean(),
  // Lines to add after line N: blank, malformed, non-ASCII text in a kept line.
  noise: fc.array(fc.tuple(fc.nat(), fc.constantFrom('blank', 'malformed', 'unicode', 'crlf')), { maxLength: 3 }),
  pick: fc.nat(),
  seq: fc.boolean(),
  strict: fc.boolean(),
});

type GeneratedFile = typeof fileArbitrary extends fc.Arbitrary<infer T> ? T : never;

function textOf(file: GeneratedFile): string {
  const base =
    file.kind === 'pi1' || file.kind === 'pi3'
      ? piTranscript({
          turns: file.turns,
          version: file.kind === 'pi1' ? 1 : 3,
          endMidCall: file.endMidCall,
          tornTail: file.tornTail,
          ...(file.branch && file.kind === 'pi3' && file.turns > 1 ? { branchAfterTurn: 1 } : {}),
          ...(file.compact ? { compactAfterTurn: Math.max(1, file.turns - 1) } : {}),
        }).text
      : codexTranscript({
          turns: file.turns,
          endMidCall: file.endMidCall,
          tornTail: file.tornTail,
          ordinals: file.kind === 'codex-ordinals',
          ...(file.compact ? { compactAfterTurn: Math.max(1, file.turns - 1) } : {}),
        }).text;
  const lines = base.split('\n');
  for (const [at, kind] of file.noise) {
    const index = 2 + (at % Math.max(1, lines.length - 3));
    if (kind === 'blank') lines.splice(index, 0, '  ');
    else if (kind === 'malformed') lines.splice(index, 0, '{"type":"message", oops');
    else if (kind === 'unicode') lines[index] = (lines[index] as string).replace(/"text":"/, '"text":"ünïcödé — 日本語 😀 ');
    else lines[index] = `${lines[index] as string}\r`;
  }
  return lines.join('\n');
}

function cutsOf(text: string, kind: string): string[] {
  const lines = splitNativeLines(text, []);
  if (kind.startsWith('codex'))
    return lines.map((line, position) => (typeof line.value.ordinal === 'number' ? String(line.value.ordinal) : String(position)));
  return lines.slice(1).flatMap((line) => (typeof line.value.id === 'string' ? [line.value.id] : []));
}

describe('forkNativeFile of a pi or Codex file', () => {
  it('gives the child, facts and errors of the fork of its decoded text, byte for byte', { timeout: 120_000 }, () => {
    let children = 0;
    let refusals = 0;
    fc.assert(
      fc.property(fileArbitrary, (file) => {
        const text = textOf(file);
        const refs = cutsOf(text, file.kind);
        const at = file.seq || refs.length === 0 ? `seq:${String(file.pick % 40)}` : (refs[file.pick % refs.length] as string);
        const options: NativeForkOptions = { at, sessionId: CHILD_ID, now: NOW, parentFile: '/p/a b.jsonl', strict: file.strict };
        const reference = outcomeOf(() => {
          const { text: child, ...facts } = forkNativeTranscript(text, options);
          return { child: Buffer.from(child, 'utf8'), facts };
        });
        const fromBytes = outcomeOf(() => {
          const { bytes: child, chunks: _chunks, ...facts } = forkNativeFile(Buffer.from(text, 'utf8'), options);
          return { child, facts };
        });
        if ('child' in reference) children++;
        else refusals++;
        expect(fromBytes).toStrictEqual(reference);
      }),
      { numRuns: 150, seed: 41_40 },
    );
    // Both outcomes are exercised: children compared byte for byte, and refusals (unknown seqs, strict malformed lines).
    expect({ children: children > 75, refusals: refusals > 0, all: children + refusals }).toStrictEqual({
      children: true,
      refusals: true,
      all: 150,
    });
  });

  it('splits bytes into the lines, indexes and warnings the split of the decoded text gives', () => {
    const text = `${piTranscript({ turns: 2 }).text}\n  \n{"bad"\n{"type":"message","id":"x1","parentId":null,"message":{"role":"user","content":"é"}}\n{"torn":`;
    const warnings: string[] = [];
    const byteWarnings: string[] = [];
    const lines = splitNativeLines(text, warnings);
    const fromBytes = splitNativeBytes(Buffer.from(text, 'utf8'), byteWarnings);
    expect(fromBytes.map((line) => ({ index: line.index, raw: line.raw, value: line.value }))).toStrictEqual(lines);
    expect(byteWarnings).toStrictEqual(warnings);
    expect(warnings).toHaveLength(1);
  });
});
