/**
 * `seq:N` and a REF's reported cut are seqs of `dsh import`'s reading of the whole file: generated
 * Claude Code (split responses, parallel results, compaction, a rewind branch), Codex and pi files
 * (one named after the cut; pi v1 entries without ids), every seq tried and every one cut.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { forkNativeTranscript, importTranscript, ImportError } from '../index.js';
import { eventsOfLines } from './cut-events.js';
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
  'pi v1 (entries without ids), compacted': piTranscript({ turns: 4, version: 1, compactAfterTurn: 2 }).text,
  'pi v1, ends mid-call': piTranscript({ turns: 2, version: 1, endMidCall: true }).text,
};

/** pi's author's real v1 session in the shared data folder (read where it lies, never copied). */
const REAL_V1 = [
  process.env.DSH_TRANSCRIPTS,
  join(import.meta.dirname, '../../../../../shared/data/transcripts'),
  '/work/shared/data/transcripts',
]
  .filter((dir): dir is string => dir !== undefined && dir !== '')
  .map((dir) => join(dir, 'pi', 'pi-mono-before-compaction-v1.jsonl'))
  .find((file) => existsSync(file));

const shown = (event: SessionEvent): string =>
  event.type === 'session/title' || event.type === 'import/source' ? event.type : `${event.type} ${JSON.stringify(event.data)}`;
const withoutTitles = (events: readonly SessionEvent[]): string[] => events.filter((event) => event.type !== 'session/title').map(shown);

type MessageData = { message: { content: readonly unknown[] } };

/** `reading` with each assistant message whose first blocks are the one `cut` holds at its place cut down to those blocks. */
function firstPartsAsCut(reading: readonly SessionEvent[], cut: readonly SessionEvent[]): SessionEvent[] {
  const held = cut.filter((event) => event.type !== 'session/title');
  let index = 0;
  return reading.map((event) => {
    if (event.type === 'session/title') return event;
    const mine = held[index++];
    if (event.type !== 'assistant/message' || mine?.type !== 'assistant/message') return event;
    const whole = (event.data as unknown as MessageData).message.content;
    const part = (mine.data as unknown as MessageData).message.content;
    const isFirstPart = part.length <= whole.length && part.every((block, at) => JSON.stringify(block) === JSON.stringify(whole[at]));
    return isFirstPart ? mine : event;
  });
}

describe('native cuts in the seqs of dsh import', () => {
  for (const [name, text] of Object.entries(FILES)) {
    it(`${name}: seq:N keeps events 0..N of the import's main line, or through the end of the one entry holding N, or refuses naming it`, () => {
      const reading = importTranscript(text, { sessionId: 'native-cut' }).sessions[0]?.events ?? [];
      const lines = splitNativeLines(text);
      const format = nativeFormatOf(lines);
      let exact = 0;
      let refused = 0;
      for (let n = 0; n < reading.length; n++) {
        let cut;
        try {
          cut = nativeCut(format, lines, `seq:${String(n)}`);
        } catch (error) {
          expect(ImportError.is(error) && error.code).toBe('INVALID_CUT');
          expect((error as Error).message).toMatch(/falls inside one .* entry \(line \d+/);
          refused++;
          continue;
        }
        expect(cut.cut).toBeGreaterThanOrEqual(n);
        // The response N falls in may hold only its first lines: the cut is the entry's REF cut (issue 41 item 8);
        // past the cut only the rest of that response and the step and turn end the child's end closes it with.
        const held = withoutTitles(reading.slice(0, cut.cut + 1)).length;
        const events = withoutTitles(cut.events);
        expect(events.slice(0, held)).toEqual(withoutTitles(firstPartsAsCut(reading.slice(0, cut.cut + 1), cut.events)));
        expect(events.slice(held).map((event) => event.split(' ')[0])).toEqual(
          events.length > held ? ['assistant/message', 'step/end', 'turn/end'] : [],
        );
        if (cut.cut === n) exact++;
        // Past N only by the rest of the entry that holds N: without that last line, N is not read.
        else {
          const upToN = withoutTitles(reading.slice(0, n + 1));
          expect(withoutTitles(eventsOfLines(format, cut.kept.slice(0, -1))).slice(0, upToN.length)).not.toEqual(upToN);
        }
      }
      expect(exact).toBeGreaterThan(reading.length / 2);
      // A pi v1 file (one line of entries, no split responses): every seq cuts.
      if (name.startsWith('pi v1')) expect(refused).toBe(0);
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

  it.skipIf(REAL_V1 === undefined)('a real pi v1 file: seqs spread over it cut there, the child holds the lines up to the cut', () => {
    const text = readFileSync(REAL_V1 as string, 'utf8');
    const raw = text.trimEnd().split('\n');
    const reading = importTranscript(text).sessions[0]?.events ?? [];
    const picks = [4, ...Array.from({ length: 10 }, (_, i) => Math.floor(((i + 1) * (reading.length - 1)) / 10))];
    for (const n of picks) {
      const fork = forkNativeTranscript(text, { at: `seq:${String(n)}`, sessionId: 'child', now: 0, parentFile: '/p.jsonl' });
      expect(fork.cut).toBeGreaterThanOrEqual(n);
      const inherited = fork.text
        .trimEnd()
        .split('\n')
        .slice(1, 1 + fork.inheritedEntryCount - 1);
      // The file's own lines 1..k in order (never the header plus the file's last line).
      expect(inherited).toStrictEqual(raw.slice(1, fork.inheritedEntryCount));
      expect(withoutTitles(importTranscript(fork.text).sessions[0]?.events.slice(0, n + 1) ?? [])).toEqual(
        withoutTitles(reading.slice(0, n + 1)),
      );
    }
  });
});
