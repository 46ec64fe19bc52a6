/**
 * A `seq:N` cut of a pi or Codex file finds its prefix in one pass (issue 40: a binary search read
 * O(log n) prefixes of a pi file whole, 33.9× a 15 MB file's size): every seq of generated Codex and
 * pi files cuts exactly as the binary search does (the same kept lines, seq and events, the same
 * refusals), and the prefixes read whole stay few however long the file — counted, not timed.
 */
import { codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { importTranscript } from '../index.js';
import { nativeCut, type NativeCut } from './native-cut.js';
import { nativeFormatOf } from './native-formats.js';
import { splitNativeLines } from './native-line.js';

const FILES: readonly [string, string][] = [
  ['codex, ordinals', codexTranscript({ turns: 5, ordinals: true, currentLineTypes: true }).text],
  ['codex legacy, mid call', codexTranscript({ turns: 5, legacy: true, endMidCall: true }).text],
  ['pi v3, branched, compacted', piTranscript({ turns: 6, branchAfterTurn: 2, compactAfterTurn: 4 }).text],
  ['pi v2, mid call', piTranscript({ turns: 5, version: 2, endMidCall: true }).text],
  ['pi v1, compacted', piTranscript({ turns: 6, version: 1, compactAfterTurn: 3 }).text],
];

/** The cut at `at`, or the refusal's code and message. */
function cutOrRefusal(text: string, at: string, bisect: boolean): NativeCut | string {
  const lines = splitNativeLines(text);
  try {
    return nativeCut(nativeFormatOf(lines), lines, at, { bisect });
  } catch (error) {
    return `${(error as { code?: string }).code ?? ''}: ${(error as Error).message}`;
  }
}

describe('a seq:N cut searches the main line in one pass', () => {
  it.each(FILES)('every seq cuts as the binary search over whole prefixes does (%s)', (_name, text) => {
    const reading = importTranscript(text, { sessionId: 'one-pass' }).sessions[0]?.events ?? [];
    expect(reading.length).toBeGreaterThan(20);
    for (let n = 0; n < reading.length; n++) {
      const at = `seq:${String(n)}`;
      const onePass = cutOrRefusal(text, at, false);
      const bisected = cutOrRefusal(text, at, true);
      if (typeof bisected === 'string') expect(onePass).toBe(bisected);
      else {
        expect(typeof onePass).toBe('object');
        const cut = onePass as NativeCut;
        expect(cut.kept.map((line) => line.index)).toEqual(bisected.kept.map((line) => line.index));
        expect(cut.cut).toBe(bisected.cut);
        expect(cut.events).toEqual(bisected.events);
      }
    }
  });

  it.each([
    ['pi v1', (turns: number) => piTranscript({ turns, version: 1 }).text],
    ['pi v3', (turns: number) => piTranscript({ turns }).text],
    ['codex', (turns: number) => codexTranscript({ turns }).text],
  ] as const)('reads no prefix whole past the first 20 lines, however long the file (%s)', (_name, make) => {
    for (const turns of [40, 160]) {
      const text = make(turns);
      const lines = splitNativeLines(text);
      const format = nativeFormatOf(lines);
      const events = importTranscript(text, { sessionId: 'one-pass' }).sessions[0]?.events.length ?? 0;
      const onePass = { whole: 0, visited: 0 };
      const bisected = { whole: 0, visited: 0 };
      const at = `seq:${String(Math.floor(events * 0.75))}`;
      nativeCut(format, lines, at, { work: onePass });
      nativeCut(format, lines, at, { bisect: true, work: bisected });
      // Two searches, each reading at most the first 20 prefixes whole; the binary search reads about 2 log2(lines).
      expect(onePass.whole).toBeLessThanOrEqual(40);
      expect(bisected.whole).toBeGreaterThan(Math.log2(lines.length));
    }
  });
});
