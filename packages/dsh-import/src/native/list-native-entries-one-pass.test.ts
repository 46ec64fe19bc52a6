/**
 * `dsh show FILE --entries` in one pass (issue 41): the entries `listNativeEntries` lists from its one
 * pass over the main line are exactly those of reading every prefix whole (as it did before, and as
 * each REF's fork reads its own prefix), and the work grows with the file, not with its square —
 * counted, not timed: prefixes read whole and items written.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { file, generated } from '../__fixtures__/mutated-claude-code-file.js';
import { listNativeEntriesWithWork } from './list-native-entries.js';

/** The entries of the one pass beside those of every prefix read whole, and the pass's work. */
function bothWays(text: string) {
  const { work, ...onePass } = listNativeEntriesWithWork(text);
  const { work: _whole, ...prefixByPrefix } = listNativeEntriesWithWork(text, { whole: true });
  return { onePass, prefixByPrefix, work };
}

const SHAPES: readonly [string, string][] = [
  ['claude-code', claudeCodeTranscript({ turns: 8 }).text],
  [
    'claude-code branched, compacted, current line types',
    claudeCodeTranscript({ turns: 8, branchAtTurn: 3, compactInTurn: 5, currentLineTypes: true }).text,
  ],
  ['claude-code out of order, mid call, torn', claudeCodeTranscript({ turns: 8, outOfOrder: true, endMidCall: true, tornTail: true }).text],
  ['claude-code subagent', claudeCodeTranscript({ turns: 6, agentId: 'a1b2c3' }).text],
  ['claude-code spawning a subagent', claudeCodeTranscript({ turns: 6, spawnsAgent: 'a1b2c3' }).text],
  ['codex', codexTranscript({ turns: 8, compactAfterTurn: 4 }).text],
  ['codex legacy mid call', codexTranscript({ turns: 6, legacy: true, endMidCall: true }).text],
  ['pi v3 branched, compacted', piTranscript({ turns: 8, branchAfterTurn: 3, compactAfterTurn: 5 }).text],
  ['pi v2 mid call', piTranscript({ turns: 8, version: 2, endMidCall: true }).text],
  ['pi v1 compacted', piTranscript({ turns: 8, version: 1, compactAfterTurn: 4 }).text],
];

describe('dsh show FILE --entries reads the main line in one pass', () => {
  it.each(SHAPES)('lists exactly the entries of reading each prefix whole (%s)', (_name, text) => {
    const { onePass, prefixByPrefix, work } = bothWays(text);
    expect(onePass).toEqual(prefixByPrefix);
    // Past the first 20 lines (where the import recognises the format) no prefix of these is read whole.
    expect(work.whole).toBeLessThanOrEqual(20);
  });

  it('lists exactly the entries of reading each prefix whole (generated Claude Code files whose lines are varied)', () => {
    fc.assert(
      fc.property(file, (options) => {
        const { onePass, prefixByPrefix } = bothWays(generated(options));
        expect(onePass).toEqual(prefixByPrefix);
      }),
      { numRuns: 12 },
    );
  });

  it.each([
    ['claude-code', (turns: number) => claudeCodeTranscript({ turns, currentLineTypes: true }).text],
    ['codex', (turns: number) => codexTranscript({ turns }).text],
    ['pi v1', (turns: number) => piTranscript({ turns, version: 1 }).text],
    ['pi v3', (turns: number) => piTranscript({ turns }).text],
  ] as const)(
    'does work in proportion to the file: four times the turns, at most four times the items written, no prefix read whole past the first 20 (%s)',
    (_name, make) => {
      const small = make(40);
      const large = make(160);
      const lines = (text: string) => text.split('\n').length;
      const smallWork = listNativeEntriesWithWork(small).work;
      const largeWork = listNativeEntriesWithWork(large).work;
      expect(lines(large)).toBeGreaterThan(3.5 * lines(small));
      expect(largeWork.whole).toBeLessThanOrEqual(20);
      expect(largeWork.itemsWritten).toBeLessThanOrEqual(4.5 * smallWork.itemsWritten);
      expect(largeWork.itemsWritten).toBeLessThanOrEqual(3 * lines(large));
    },
  );
});

// The real files of the shared data folder (SOURCES.md; never copied in), the smaller ones (reading each prefix whole is the slow way).
const ROOT =
  [process.env.DSH_TRANSCRIPTS, join(import.meta.dirname, '../../../../../shared/data/transcripts'), '/work/shared/data/transcripts'].find(
    (dir): dir is string => dir !== undefined && dir !== '' && existsSync(dir),
  ) ?? '';
const REAL = [
  'claude-code/claude-reliability-python-to-rust-port.jsonl',
  'claude-code/codemie-e9fb405b-full.jsonl',
  'claude-code/codemie-e9fb405b-subagent-a485154.jsonl',
  'claude-code/claude-parser-3a7770b4-v1.0.89.jsonl',
  'claude-code/spotter-4d5611e5-subagent-a2898e3.jsonl',
  'codex/feipi-rollout-019edda8-desktop-0.140.jsonl',
  'pi/kimchi-019dcd91-v3.jsonl',
].filter((path) => ROOT !== '' && existsSync(join(ROOT, path)));

describe.skipIf(REAL.length === 0)('dsh show FILE --entries on real files', () => {
  it.each(REAL)('lists exactly the entries of reading each prefix whole, none read whole past the first 20 (%s)', (path) => {
    const { onePass, prefixByPrefix, work } = bothWays(readFileSync(join(ROOT, path), 'utf8'));
    expect(onePass).toEqual(prefixByPrefix);
    expect(work.whole).toBeLessThanOrEqual(20);
  });
});
