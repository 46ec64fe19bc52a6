import { existsSync, readFileSync } from 'node:fs';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeTranscript, importTranscript, listNativeEntries } from 'dsh-import';

const CHILD = '00000000-0000-4000-8000-0000000000c1';
const fork = (text: string, at: string) => forkNativeTranscript(text, { at, sessionId: CHILD, now: 0 });

/** Generated files of each format and shape (branches, compaction, out-of-order lines, an open call, current line types). */
const GENERATED: readonly [string, string][] = [
  ['claude-code', claudeCodeTranscript({ turns: 3 }).text],
  ['claude-code branched', claudeCodeTranscript({ turns: 4, branchAtTurn: 2 }).text],
  ['claude-code compacted', claudeCodeTranscript({ turns: 3, compactInTurn: 2 }).text],
  ['claude-code out of order', claudeCodeTranscript({ turns: 3, outOfOrder: true }).text],
  ['claude-code mid call', claudeCodeTranscript({ turns: 2, endMidCall: true }).text],
  ['claude-code current line types', claudeCodeTranscript({ turns: 2, currentLineTypes: true }).text],
  ['codex', codexTranscript({ turns: 3 }).text],
  ['pi', piTranscript({ turns: 3 }).text],
];

describe('listNativeEntries', () => {
  it("lists the main line's entries with their REF, the seq their REF fork reports, the tool's type and the calls each holds", () => {
    const text = claudeCodeTranscript({ turns: 2 }).text;
    const { format, entries } = listNativeEntries(text);
    expect(format).toBe('claude-code');
    expect(entries.filter((entry) => entry.calls.length > 0).map((entry) => entry.type)).toContain('assistant');
    for (const entry of entries) if (entry.ref !== undefined) expect(fork(text, entry.ref).cut, entry.ref).toBe(entry.seq);
    // Every call of the reading is marked on exactly one entry.
    const calls = importTranscript(text).sessions[0]?.events.filter((event) => event.type === 'tool/call') ?? [];
    expect(entries.flatMap((entry) => entry.calls.map((call) => call.id)).sort()).toEqual(
      calls.map((event) => (event.data as { callId: string }).callId).sort(),
    );
  });

  it("summarises each entry by what it adds, also where its line restates the session's source (a subagent's result links it) or title", () => {
    const text = claudeCodeTranscript({ turns: 3, spawnsAgent: 'a1b2c3' }).text;
    const { entries } = listNativeEntries(text);
    const task = entries.find((entry) => entry.calls.some((call) => call.name === 'Task'));
    const callId = task?.calls.find((call) => call.name === 'Task')?.id ?? '';
    const result = entries.find((entry) => entry.summary.includes(`result of ${callId}`));
    expect(result?.type).toBe('user');
    expect(result?.summary.startsWith(`result of ${callId}: `)).toBe(true);
    // Only the first prompt's entry is summarised by it.
    const prompt = entries.find((entry) => entry.type === 'user')?.summary ?? '';
    expect(entries.filter((entry) => entry.summary === prompt)).toHaveLength(1);
  });

  for (const [name, text] of GENERATED) {
    it(`${name}: every listed seq is accepted back by --at seq:N, and cuts exactly there where the line's reading has that event`, () => {
      const { entries } = listNativeEntries(text);
      expect(entries.length).toBeGreaterThan(3);
      const whole = importTranscript(text).sessions[0]?.events ?? [];
      for (const entry of entries) {
        const bySeq = fork(text, `seq:${String(entry.seq)}`);
        expect(bySeq.cut, `seq:${String(entry.seq)}`).toBeGreaterThanOrEqual(entry.seq);
        if (entry.ref === undefined) continue;
        // The REF cut's reading through its seq is the whole line's: `seq:N` names the same cut.
        const byRef = importTranscript(fork(text, entry.ref).text).sessions[0]?.events ?? [];
        const exact = byRef.slice(1, entry.seq + 1).every((event, index) => event.type === whole[index + 1]?.type);
        if (exact) expect(bySeq.cut, `seq:${String(entry.seq)} (${entry.ref})`).toBe(entry.seq);
      }
    });
  }

  const FEIPI = '/work/shared/data/transcripts/claude-code/feipi-8a283a61.jsonl';
  it.skipIf(!existsSync(FEIPI))(
    'a real Claude Code file: --at seq:8, the cut its Read tool_use reports, writes the same child as that REF (issue 41 item 8)',
    () => {
      const text = readFileSync(FEIPI, 'utf8');
      const read = 'ae6df8d6-207d-4422-8a04-a8ccae23494f';
      const byRef = fork(text, read);
      expect(byRef.cut).toBe(8);
      const bySeq = fork(text, 'seq:8');
      expect(bySeq).toMatchObject({ cut: 8, inheritedEntryCount: byRef.inheritedEntryCount });
      // The same lines copied and the same call closed (a closer's uuid is salted with the REF given).
      const inherited = (child: string) => child.split('\n').slice(0, byRef.inheritedEntryCount);
      expect(inherited(bySeq.text)).toEqual(inherited(byRef.text));
      expect(bySeq.closedCalls).toEqual(byRef.closedCalls);
      expect(listNativeEntries(text).entries.find((entry) => entry.ref === read)).toMatchObject({
        seq: 8,
        calls: [{ id: 'toolu_c20e391b57a640c1ac962594', name: 'Read' }],
      });
    },
  );
});
