/**
 * Property (SPEC §26 "Finding the entry to cut at", issue 41): every entry `listNativeEntries` lists
 * for a generated Claude Code file (responses one line per content block sharing `message.id`,
 * parallel results, compaction, rewinds, out-of-order lines, current line types, an open call) cuts
 * exactly there — its REF's child, on the text path and on the byte path `dsh fork FILE` takes, ends
 * with that entry's line and reports the listed seq, and its reading is the file's through that seq —
 * and `seq:N` of a listed seq writes the child of the first entry listed with N.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';
import type { SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { TRANSCRIPT_SHAPE } from '../__fixtures__/mutated-claude-code-file.js';
import { forkNativeFile, forkNativeTranscript, importTranscript, listNativeEntries, type NativeFork } from '../index.js';

const CHILD = 'c0ffee00-0000-4000-8000-0000000000c1';

/** The uuid of each line the child inherited (its closers left out). */
function inheritedUuids(fork: Pick<NativeFork, 'text' | 'inheritedEntryCount'>): (string | undefined)[] {
  return fork.text
    .trimEnd()
    .split('\n')
    .slice(0, fork.inheritedEntryCount)
    .map((line) => (JSON.parse(line) as { uuid?: string }).uuid);
}

/** The events of a reading, titles and the source record left out (a title's text may come from lines after the cut). */
const core = (events: readonly SessionEvent[]): SessionEvent[] =>
  events.filter((event) => event.type !== 'session/title' && event.type !== 'import/source');

type MessageData = { turn: number; step: number; message: { content: readonly unknown[] } };

/** Whether `part` is `whole`, or (an assistant message) its first blocks. */
function sameOrFirstPart(part: SessionEvent, whole: SessionEvent): boolean {
  if (part.type !== 'assistant/message' || whole.type !== 'assistant/message')
    return part.type === whole.type && JSON.stringify(part.data) === JSON.stringify(whole.data);
  const a = part.data as unknown as MessageData;
  const b = whole.data as unknown as MessageData;
  const blocks = a.message.content.map((block) => JSON.stringify(block));
  return a.turn === b.turn && a.step === b.step && blocks.every((block, index) => block === JSON.stringify(b.message.content[index]));
}

describe('every entry dsh show FILE --entries lists cuts exactly there (generated Claude Code files)', () => {
  it("the REF child ends with the entry and reports its seq (text and byte path); seq:N writes the first such entry's child", () => {
    let partial = 0;
    fc.assert(
      fc.property(fc.record(TRANSCRIPT_SHAPE), ({ branchAtTurn, turns, ...rest }) => {
        const options = { turns, ...rest, ...(branchAtTurn !== undefined && branchAtTurn <= turns ? { branchAtTurn } : {}) };
        const { text } = claudeCodeTranscript(options as Parameters<typeof claudeCodeTranscript>[0]);
        const whole = importTranscript(text).sessions[0]?.events ?? [];
        const { entries } = listNativeEntries(text);
        const firstWith = new Map<number, string>();
        for (const entry of entries) {
          const ref = entry.ref as string;
          if (!firstWith.has(entry.seq)) firstWith.set(entry.seq, ref);
          const at = { at: ref, sessionId: CHILD, now: 0 };
          const byRef = forkNativeTranscript(text, at);
          expect(inheritedUuids(byRef).at(-1), ref).toBe(ref);
          expect(byRef.cut, ref).toBe(entry.seq);
          const onBytes = forkNativeFile(Buffer.from(text, 'utf8'), at);
          expect(Buffer.from(onBytes.bytes).toString('utf8'), ref).toBe(byRef.text);
          expect(onBytes.cut, ref).toBe(entry.seq);
          // Through its seq the child reads as the whole file does (a response it holds the first blocks of ends after the seq).
          const child = core(importTranscript(byRef.text).sessions[0]?.events ?? []);
          const through = core(whole.slice(0, entry.seq + 1));
          through.forEach((event, index) => {
            expect(sameOrFirstPart(child[index] as SessionEvent, event), `${ref} at ${String(event.seq)}`).toBe(true);
          });
          // Past the seq: the first blocks of a response the file goes on with, closed by the child's own end.
          const after = child.slice(through.length);
          if (after[0]?.type === 'assistant/message') {
            partial++;
            expect(after.map((event) => event.type)).toEqual(['assistant/message', 'step/end', 'turn/end']);
          }
        }
        for (const [seq, ref] of firstWith) {
          const bySeq = forkNativeTranscript(text, { at: `seq:${String(seq)}`, sessionId: CHILD, now: 0 });
          expect(bySeq.cut, `seq:${String(seq)}`).toBe(seq);
          expect(inheritedUuids(bySeq).at(-1), `seq:${String(seq)}`).toBe(ref);
        }
      }),
      { numRuns: 8 },
    );
    // The generated files hold responses written over several lines, and entries cut inside them.
    expect(partial).toBeGreaterThan(0);
  });
});
