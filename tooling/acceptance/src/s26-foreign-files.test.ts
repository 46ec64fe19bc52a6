/**
 * SPEC §26 "Foreign session files as the tools really write them", through dsh-import's published
 * API on generated files of the shapes the tools write: lines out of order, pi version 1 entries,
 * a torn last line, a malformed line in the middle, finding the entry to cut at (every listed entry
 * cuts exactly there, a Claude Code response written one line per content block included), and the
 * bookkeeping line types skipped quietly. The real tools resuming these children are in
 * tooling/interop (docs/import.md names each test); the CLI's output points in apps/cli.
 */
import { claudeCodeTranscript, piTranscript } from '@dsh/test-utils';
import { forkNativeTranscript, importTranscript, listNativeEntries, repairNativeTranscript } from 'dsh-import';
import { describe, expect, it } from 'vitest';

const CHILD = 'c0ffee00-0000-4000-8000-00000000a026';
const fork = (text: string, at: string) => forkNativeTranscript(text, { at, sessionId: CHILD, now: 0, parentFile: '/p.jsonl' });

/** The value of each line of `text` (the torn or malformed ones left out). */
function values(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

describe('SPEC §26 foreign session files', () => {
  it('lines out of order: import and fork follow uuid/parentUuid, the child lines in chain order with every prompt before its answer', () => {
    const text = claudeCodeTranscript({ turns: 3, outOfOrder: true }).text;
    const inOrder = claudeCodeTranscript({ turns: 3 }).text;
    const shown = (source: string) =>
      (importTranscript(source).sessions[0]?.events ?? []).filter((event) => event.type !== 'import/source').map((event) => event.type);
    expect(shown(text)).toEqual(shown(inOrder));
    const last = values(text).findLast((value) => value.type === 'assistant')?.uuid as string;
    const child = values(fork(text, last).text);
    const position = new Map(child.map((value, index) => [value.uuid, index]));
    for (const value of child)
      if (typeof value.parentUuid === 'string' && position.has(value.parentUuid))
        expect(position.get(value.parentUuid)).toBeLessThan(position.get(value.uuid) as number);
  });

  it("lines out of order: repair closes the calls of the chain's last response, its closers after that response whatever line the file ends with", () => {
    const lines = claudeCodeTranscript({ turns: 3, endMidCall: true }).text.trimEnd().split('\n');
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    // The last response (its call open) written before the line it follows, as interactive Claude Code does.
    const last = parsed.findLastIndex((value) => value.type === 'assistant');
    const parent = parsed.findIndex((value) => value.uuid === parsed[last]?.parentUuid);
    expect(parent).toBeGreaterThanOrEqual(0);
    const moved = [...lines.slice(0, parent), lines[last] as string, ...lines.slice(parent, last), ...lines.slice(last + 1)];
    const text = `${moved.join('\n')}\n`;
    const repair = repairNativeTranscript(text, { now: 0 });
    const inOrder = repairNativeTranscript(`${lines.join('\n')}\n`, { now: 0 });
    expect(repair.closedCalls.map((call) => call.callId)).toEqual(inOrder.closedCalls.map((call) => call.callId));
    expect(repair.closedCalls.length).toBeGreaterThan(0);
    const closers = values(repair.appended);
    expect(closers[0]?.parentUuid).toBe(parsed[last]?.uuid);
    const read = importTranscript(text + repair.appended);
    expect(read.warnings).toEqual([]);
    const events = read.sessions[0]?.events ?? [];
    const answered = new Set(
      events.filter((event) => event.type === 'tool/result').map((event) => (event.data as { message: { callId: string } }).message.callId),
    );
    for (const call of repair.closedCalls) expect(answered.has(call.callId), call.callId).toBe(true);
  });

  it('pi version 1 (entries without ids): every seq dsh show lists cuts there, the child keeps the lines up to the cut', () => {
    const text = piTranscript({ turns: 3, version: 1 }).text;
    const raw = text.trimEnd().split('\n');
    const { entries } = listNativeEntries(text);
    expect(entries.every((entry) => entry.ref === undefined)).toBe(true);
    for (const entry of entries) {
      const child = fork(text, `seq:${String(entry.seq)}`);
      expect(child.cut).toBe(entry.seq);
      expect(child.text.trimEnd().split('\n').slice(1, child.inheritedEntryCount)).toEqual(raw.slice(1, child.inheritedEntryCount));
    }
  });

  it('a torn last line: repair moves the torn bytes out before appending its closers, the repaired file reads cleanly', () => {
    const text = claudeCodeTranscript({ turns: 2, endMidCall: true, tornTail: true }).text;
    const repair = repairNativeTranscript(text, { now: 0 });
    expect(repair.torn).not.toBe('');
    expect(text.endsWith(repair.torn)).toBe(true);
    const repaired = text.slice(0, text.length - repair.torn.length) + repair.appended;
    expect(repair.closedCalls.length).toBeGreaterThan(0);
    expect(() => importTranscript(repaired, { strict: true })).not.toThrow();
    expect(importTranscript(repaired).warnings.filter((warning) => /line \d+: not a JSON/.test(warning))).toEqual([]);
  });

  it('a malformed line in the middle: skipped with a warning naming it for import, fork and repair, never copied into a child; strict refuses it', () => {
    const lines = claudeCodeTranscript({ turns: 3 }).text.trimEnd().split('\n');
    lines.splice(12, 0, '{"type":"assistant", this is not JSON');
    const text = `${lines.join('\n')}\n`;
    expect(importTranscript(text).warnings.join('\n')).toMatch(/line 13/);
    const last = values(text).findLast((value) => value.type === 'assistant')?.uuid as string;
    const child = fork(text, last);
    expect(child.warnings.join('\n')).toMatch(/line 13/);
    expect(child.text).not.toContain('this is not JSON');
    expect(repairNativeTranscript(text, { now: 0 }).warnings.join('\n')).toMatch(/line 13/);
    expect(() => forkNativeTranscript(text, { at: last, sessionId: CHILD, now: 0, strict: true })).toThrow(
      expect.objectContaining({ code: 'MALFORMED_LINE' }),
    );
  });

  it('finding the entry: every listed entry (a thinking or text line inside one response included) cuts exactly there, at the listed seq', () => {
    const text = claudeCodeTranscript({ turns: 3 }).text;
    const { entries } = listNativeEntries(text);
    const insideResponse = entries.filter((entry) => entry.type === 'assistant' && entry.calls.length === 0);
    expect(insideResponse.length).toBeGreaterThan(0);
    const firstWith = new Map<number, string>();
    for (const entry of entries) {
      const ref = entry.ref as string;
      if (!firstWith.has(entry.seq)) firstWith.set(entry.seq, ref);
      const child = fork(text, ref);
      expect(child.cut, ref).toBe(entry.seq);
      expect(values(child.text)[child.inheritedEntryCount - 1]?.uuid, ref).toBe(ref);
    }
    for (const [seq, ref] of firstWith) {
      const child = fork(text, `seq:${String(seq)}`);
      expect(child.cut).toBe(seq);
      expect(values(child.text)[child.inheritedEntryCount - 1]?.uuid).toBe(ref);
    }
  });

  it("new bookkeeping line types (Claude Code 2.1.337's api-request-route) are skipped without a warning", () => {
    const { text } = claudeCodeTranscript({ turns: 2, currentLineTypes: true });
    expect(text).toContain('"api-request-route"');
    expect(importTranscript(text).warnings.join('\n')).not.toMatch(/api-request-route/);
    expect(listNativeEntries(text).warnings).toEqual([]);
  });
});
