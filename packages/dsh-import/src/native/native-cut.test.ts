/**
 * `seq:N` and a REF's reported cut are seqs of `dsh import`'s reading of the whole file: generated
 * Claude Code (split responses, parallel results, compaction, a rewind branch), Codex and pi files
 * (one named after the cut), every seq tried.
 */
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { forkNativeTranscript, importTranscript, ImportError } from '../index.js';
import { nativeCut } from './native-cut.js';
import { nativeFormatOf } from './native-formats.js';
import { splitNativeLines } from './native-line.js';

const FILES: Record<string, string> = {
  'Claude Code, compacted': claudeCodeTranscript({ turns: 3, compactInTurn: 2 }).text,
  'Claude Code, rewound, current line types': claudeCodeTranscript({ turns: 3, branchAtTurn: 2, currentLineTypes: true }).text,
  'Claude Code, ends mid-call': claudeCodeTranscript({ turns: 2, endMidCall: true }).text,
  'Codex, with ordinals': codexTranscript({ turns: 3, ordinals: true, currentLineTypes: true }).text,
  'pi, branched': piTranscript({ turns: 3, branchAfterTurn: 2 }).text,
  'pi, renamed in turn 7': piTranscript({ turns: 8 }).text,
};

const shown = (event: SessionEvent): string =>
  event.type === 'session/title' || event.type === 'import/source' ? event.type : `${event.type} ${JSON.stringify(event.data)}`;
const withoutTitles = (events: readonly SessionEvent[]): string[] => events.filter((event) => event.type !== 'session/title').map(shown);

describe('native cuts in the seqs of dsh import', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`${name}: seq:N keeps events 0..N of the import's main line exactly, or refuses naming the entry`, () => {
      const reading = importTranscript(text, { sessionId: 'native-cut' }).sessions[0]?.events ?? [];
      const lines = splitNativeLines(text);
      const format = nativeFormatOf(lines);
      let cuts = 0;
      for (let n = 0; n < reading.length; n++) {
        let cut;
        try {
          cut = nativeCut(format, lines, `seq:${String(n)}`);
        } catch (error) {
          expect(ImportError.is(error) && error.code).toBe('INVALID_CUT');
          expect((error as Error).message).toMatch(/falls inside one .* entry \(line \d+/);
          continue;
        }
        cuts++;
        expect(cut.cut).toBe(n);
        expect(withoutTitles(cut.events)).toEqual(withoutTitles(reading.slice(0, n + 1)));
      }
      expect(cuts).toBeGreaterThan(reading.length / 2);
    });
  }

  it('pi renamed in turn 7: a REF before the rename reports its seq in the import, which titles the session there', () => {
    const text = FILES['pi, renamed in turn 7'] as string;
    const reading = importTranscript(text, { sessionId: 'native-cut' }).sessions[0]?.events ?? [];
    expect(reading[1]?.type).not.toBe('session/title');
    const firstAnswer = splitNativeLines(text).find(
      (line) => line.value.type === 'message' && (line.value.message as { role: string }).role === 'assistant',
    );
    const fork = forkNativeTranscript(text, { at: firstAnswer?.value.id as string, sessionId: 'child', now: 0 });
    const child = importTranscript(fork.text, { sessionId: 'native-cut' }).sessions[0]?.events ?? [];
    expect(child[1]?.type).toBe('session/title');
    expect(withoutTitles(reading.slice(0, fork.cut + 1))).toEqual(withoutTitles(child.slice(0, fork.cut + 2)));
  });
});
