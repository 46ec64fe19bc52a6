/**
 * Property: the native fork's one-index cut (`entryCut`: `claudeCodeSkeletonChain` and its count of the
 * import's events, `claudeCodeEventCount`, from the skeletons' line table, no events built) give exactly what the
 * general path gives (`nativeCut`: the tree built by claudeCodeTree, the kept lines read by
 * `importTranscript`'s reader and writer) — the kept lines, the cut seq and the calls open at the
 * cut — at every entry of generated Claude Code files and of the real files in the shared data
 * folder (read where they lie, never copied).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_SHAPE } from '../../__fixtures__/mutated-claude-code-file.js';
import { CLAUDE_CODE_NATIVE } from '../claude-code-native.js';
import { claudeCodeLineTableOf } from '../../__fixtures__/claude-code-line-table-of.js';
import { claudeCodeSkeletonOf } from './claude-code-skeleton.js';
import { entryCut } from './claude-code-byte-fork.js';
import { nativeCut } from '../native-cut.js';
import { splitNativeLines, type NativeLine } from '../native-line.js';
import { openCallsAt } from '../open-calls.js';

const ROOT =
  [process.env.DSH_TRANSCRIPTS, join(import.meta.dirname, '../../../../../shared/data/transcripts'), '/work/shared/data/transcripts'].find(
    (dir): dir is string => dir !== undefined && dir !== '' && existsSync(dir),
  ) ?? '';
const REAL = ROOT === '' ? [] : readdirSync(join(ROOT, 'claude-code')).filter((file) => file.endsWith('.jsonl'));

/** What the general path gives for a cut at line `at` of `lines`, next to what the one-index path gives (undefined: it declines). */
function both(lines: readonly NativeLine[], at: number) {
  const ref = lines[at]?.value.uuid as string;
  const general = nativeCut(CLAUDE_CODE_NATIVE, lines, ref);
  const reference = { kept: general.kept.map((line) => line.index), cut: general.cut, openCalls: openCallsAt(general.events) };
  const table = claudeCodeLineTableOf(lines.map((line) => claudeCodeSkeletonOf(line.value)));
  const cut = entryCut(table, ref);
  if (cut === undefined) return { reference, fast: undefined };
  return {
    reference,
    fast: { kept: cut.kept.map((index) => (lines[index] as NativeLine).index), cut: cut.cut, openCalls: cut.closedCalls },
  };
}

/** The positions of the lines holding a string uuid. */
function entryPositions(lines: readonly NativeLine[]): number[] {
  return lines.flatMap((line, position) => (typeof line.value.uuid === 'string' ? [position] : []));
}

const shape = fc.record({ ...TRANSCRIPT_SHAPE, subagent: fc.boolean() });

describe('claudeCodeEventCount and claudeCodeSkeletonChain', () => {
  it('give the kept lines, cut seq and open calls of the import reading of the chain, at every entry of generated files', () => {
    let taken = 0;
    let cuts = 0;
    fc.assert(
      fc.property(shape, ({ subagent, branchAtTurn, turns, ...rest }) => {
        const options = {
          turns,
          ...rest,
          ...(branchAtTurn !== undefined && branchAtTurn <= turns ? { branchAtTurn } : {}),
          ...(subagent ? { agentId: 'a1b2c3' } : {}),
        };
        const { text } = claudeCodeTranscript(options as Parameters<typeof claudeCodeTranscript>[0]);
        const lines = splitNativeLines(text);
        for (const at of entryPositions(lines)) {
          const { reference, fast } = both(lines, at);
          // A file whose lines are not in chain order is the general path's (the index declines it).
          if (rest.outOfOrder) {
            expect(fast).toBeUndefined();
            continue;
          }
          cuts++;
          if (fast === undefined) continue;
          taken++;
          expect(fast).toStrictEqual(reference);
        }
      }),
      { numRuns: 40 },
    );
    // The one-index path takes most of the generated files' cuts: not at lines that are not entries, nor
    // where the child holds part of a response other than its last calls (a thinking or text line, a result between calls).
    expect(taken).toBeGreaterThan(cuts * 0.6);
  });

  it.skipIf(REAL.length === 0).each(REAL)('give what the import reading gives at every entry of %s', (file) => {
    const lines = splitNativeLines(readFileSync(join(ROOT, 'claude-code', file), 'utf8'));
    const positions = entryPositions(lines);
    // Every entry of a small file; about 60 spread over a large one.
    const step = Math.max(1, Math.floor(positions.length / 60));
    let taken = 0;
    for (let i = 0; i < positions.length; i += step) {
      const { reference, fast } = both(lines, positions[i] as number);
      if (fast === undefined) continue;
      taken++;
      expect(fast).toStrictEqual(reference);
    }
    expect(taken).toBeGreaterThan(0);
  });
});
