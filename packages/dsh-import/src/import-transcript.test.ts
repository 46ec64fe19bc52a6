import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { CURRENT_FORMAT_VERSION, encodeJsonl, validate, type SessionEvent } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { importTranscript, ImportError, type ImportResult } from 'dsh-import';
import { importedCalls, importedResults, sourceResults } from './__fixtures__/source-results.js';

const FIXTURES = {
  'claude-code': {
    plain: () => claudeCodeTranscript({ turns: 14 }).text,
    branched: () => claudeCodeTranscript({ turns: 10, branchAtTurn: 6 }).text,
    compacted: () => claudeCodeTranscript({ turns: 10, compactInTurn: 5 }).text,
    open: () => claudeCodeTranscript({ turns: 12, endMidCall: true }).text,
    torn: () => claudeCodeTranscript({ turns: 12, tornTail: true }).text,
  },
  codex: {
    plain: () => codexTranscript({ turns: 14 }).text,
    legacy: () => codexTranscript({ turns: 24, legacy: true }).text,
    compacted: () => codexTranscript({ turns: 10, compactAfterTurn: 5 }).text,
    open: () => codexTranscript({ turns: 8, endMidCall: true }).text,
    torn: () => codexTranscript({ turns: 8, tornTail: true }).text,
  },
  pi: {
    plain: () => piTranscript({ turns: 32 }).text,
    v1: () => piTranscript({ turns: 24, version: 1, compactAfterTurn: 6 }).text,
    v2: () => piTranscript({ turns: 24, version: 2 }).text,
    branched: () => piTranscript({ turns: 24, branchAfterTurn: 4 }).text,
    compacted: () => piTranscript({ turns: 24, compactAfterTurn: 6 }).text,
    open: () => piTranscript({ turns: 20, endMidCall: true }).text,
    torn: () => piTranscript({ turns: 20, tornTail: true }).text,
  },
} as const;

function count(events: readonly SessionEvent[], type: string): number {
  return events.filter((event) => event.type === type).length;
}

describe.each(Object.entries(FIXTURES))('%s fixtures', (format, fixtures) => {
  describe.each(Object.entries(fixtures))('%s', (_name, make) => {
    const text = make();
    const result: ImportResult = importTranscript(text);

    it('is recognised as its format and has hundreds of source lines', () => {
      expect(result.format).toBe(format);
      expect(text.split('\n').length).toBeGreaterThan(150);
    });

    it('gives artifacts that the current validator accepts', () => {
      for (const session of result.sessions) expect(validate(CURRENT_FORMAT_VERSION, session)).toEqual([]);
    });

    it('keeps every result text of a call on the main line exactly, paired with its call', () => {
      const source = sourceResults(text);
      const main = result.sessions[0]?.events ?? [];
      const calls = importedCalls(main);
      expect(calls.length).toBeGreaterThan(10);
      const results = importedResults(main);
      for (const call of calls) {
        const recorded = source.get(call.callId);
        if (recorded === undefined) expect(results.has(call.callId)).toBe(false);
        else expect(results.get(call.callId)).toEqual(recorded);
      }
    });

    it('gives identical bytes when imported twice', () => {
      const again = importTranscript(text);
      expect(again.sessions.map(encodeJsonl)).toEqual(result.sessions.map(encodeJsonl));
      expect(again.warnings).toEqual(result.warnings);
    });

    it('gives every branch exactly its parent’s events up to its cut', () => {
      const byId = new Map(result.sessions.map((session) => [session.header.id, session]));
      for (const child of result.sessions.slice(1)) {
        const { parentSession, forkCut, inheritedEventCount } = child.header;
        const parent = byId.get(parentSession ?? '');
        expect(parent).toBeDefined();
        expect(inheritedEventCount).toBe((forkCut ?? -2) + 1);
        expect(child.events.slice(0, inheritedEventCount)).toEqual(parent?.events.slice(0, inheritedEventCount));
        expect(child.events[inheritedEventCount]).toMatchObject({ type: 'session/end-seed', data: { inherited: true } });
      }
    });
  });
});

describe('what each fixture shape becomes', () => {
  it('Claude Code: a rewind makes the abandoned attempt a fork child cut at a turn end', () => {
    const { sessions } = importTranscript(FIXTURES['claude-code'].branched());
    expect(sessions).toHaveLength(2);
    const [main, child] = sessions as [ImportResult['sessions'][0], ImportResult['sessions'][0]];
    expect(child.header.parentSession).toBe(main.header.id);
    expect(main.events[child.header.forkCut ?? -1]?.type).toBe('turn/end');
    const prompts = (events: readonly SessionEvent[]) =>
      events
        .filter((e) => e.type === 'user/message')
        .map((e) => JSON.stringify(e.data))
        .filter((d) => d.includes('module 6') || d.includes('quick way'));
    expect(prompts(main.events).join()).toContain('Now module 6, carefully.');
    expect(prompts(child.events).join()).toContain('Try module 6 the quick way.');
    expect(prompts(main.events).join()).not.toContain('quick way');
  });

  it('Claude Code: one response over several lines is one step with all its calls', () => {
    const { sessions } = importTranscript(FIXTURES['claude-code'].plain());
    const events = sessions[0]?.events ?? [];
    const parallel = events.filter((e) => e.type === 'assistant/message' && JSON.stringify(e.data).split('"tool-call"').length === 3);
    expect(parallel.length).toBeGreaterThan(0);
    expect(count(events, 'assistant/message')).toBe(count(events, 'step/start'));
  });

  it('Claude Code: compaction replaces the history before it with the summary', () => {
    const { sessions } = importTranscript(FIXTURES['claude-code'].compacted());
    const events = sessions[0]?.events ?? [];
    const replacing = events.find((e) => e.surfaceOp !== undefined);
    expect(replacing?.type).toBe('user/message');
    expect(JSON.stringify(replacing?.data)).toContain('This session is being continued');
    expect(replacing?.surfaceOp?.start).toBe(events.find((e) => e.type === 'user/message')?.seq);
    expect(count(events, 'compaction/start')).toBe(1);
  });

  it.each(['claude-code', 'codex', 'pi'] as const)('%s: a trailing call without a result is left open, nothing invented', (format) => {
    const { sessions } = importTranscript(FIXTURES[format].open());
    const events = sessions[0]?.events ?? [];
    const last = events[events.length - 1];
    expect(last?.type).toBe('tool/call');
    const lastStep = events.findLastIndex((e) => e.type === 'step/start');
    expect(events.slice(lastStep).some((e) => e.type === 'tool/result' || e.type === 'step/end' || e.type === 'turn/end')).toBe(false);
  });

  it.each(['claude-code', 'codex', 'pi'] as const)('%s: a torn last line is dropped with a warning naming its line', (format) => {
    const text = FIXTURES[format].torn();
    const lastLine = text.split('\n').length;
    const { warnings, sessions } = importTranscript(text);
    expect(warnings.some((w) => w.startsWith(`line ${lastLine}: torn final line`))).toBe(true);
    expect(encodeJsonl(sessions[0] as ImportResult['sessions'][0])).toBe(
      encodeJsonl(importTranscript(text.slice(0, text.lastIndexOf('\n') + 1)).sessions[0] as ImportResult['sessions'][0]),
    );
  });

  it.each(['claude-code', 'codex', 'pi'] as const)('%s: unknown line types are skipped and counted', (format) => {
    const { warnings } = importTranscript(FIXTURES[format].plain());
    expect(warnings.some((w) => /unknown type "future[-_]/.test(w))).toBe(true);
  });

  it('Codex: the older bare layout reads like the newer one', () => {
    const { sessions, format } = importTranscript(FIXTURES.codex.legacy());
    expect(format).toBe('codex');
    expect(count(sessions[0]?.events ?? [], 'tool/result')).toBeGreaterThan(10);
  });

  it('Codex: an aborted turn ends cancelled', () => {
    const { sessions } = importTranscript(FIXTURES.codex.plain());
    const ends = (sessions[0]?.events ?? [])
      .filter((e) => e.type === 'turn/end')
      .map((e) => (e.data as { reason: { kind: string } }).reason.kind);
    expect(ends[2]).toBe('cancelled');
    expect(ends.filter((kind) => kind === 'completed').length).toBe(ends.length - 1);
  });

  it('pi: a /tree branch becomes a fork child and the later path the main line', () => {
    const { sessions } = importTranscript(FIXTURES.pi.branched());
    expect(sessions).toHaveLength(2);
    expect(JSON.stringify(sessions[0]?.events)).toContain('The abandoned path tried');
    expect(JSON.stringify(sessions[1]?.events)).not.toContain('The abandoned path tried');
  });

  it('pi: compaction keeps the entries from firstKeptEntryId/Index after the summary', () => {
    for (const text of [FIXTURES.pi.compacted(), FIXTURES.pi.v1()]) {
      const events = importTranscript(text).sessions[0]?.events ?? [];
      const replacing = events.find((e) => e.surfaceOp !== undefined);
      const start = events.find((e) => e.type === 'compaction/start');
      expect(replacing?.surfaceOp?.end).toBeLessThan(start?.seq ?? 0);
      // Something before the compaction stays visible: the kept entries.
      expect(
        events.some(
          (e) =>
            e.seq > (replacing?.surfaceOp?.end ?? 0) &&
            e.seq < (start?.seq ?? 0) &&
            ['user/message', 'assistant/message', 'tool/result'].includes(e.type),
        ),
      ).toBe(true);
    }
  });

  it('pi: an aborted response ends its turn cancelled', () => {
    const events = importTranscript(FIXTURES.pi.plain()).sessions[0]?.events ?? [];
    const ends = events.filter((e) => e.type === 'turn/end').map((e) => (e.data as { reason: { kind: string } }).reason.kind);
    expect(ends[2]).toBe('cancelled');
  });

  it('known tools get their effect; others are unknown', () => {
    const effects = (text: string) =>
      new Map(importedCalls(importTranscript(text).sessions[0]?.events ?? []).map((c) => [c.name, c.effect]));
    expect(effects(FIXTURES['claude-code'].plain())).toEqual(
      new Map([
        ['Read', 'read-only'],
        ['Grep', 'read-only'],
        ['Bash', 'side-effect'],
        ['Edit', 'side-effect'],
        ['TodoWrite', 'idempotent'],
        ['mcp__github__get_issue', 'unknown'],
      ]),
    );
    expect(effects(FIXTURES.codex.plain())).toEqual(
      new Map([
        ['exec_command', 'side-effect'],
        ['apply_patch', 'side-effect'],
        ['local_shell', 'side-effect'],
        ['update_plan', 'idempotent'],
      ]),
    );
    expect(effects(FIXTURES.pi.plain()).get('read')).toBe('read-only');
    expect(effects(FIXTURES.pi.plain()).get('subagent')).toBe('unknown');
  });

  it('ids come from sessionId when given, else from the source', () => {
    const text = FIXTURES['claude-code'].branched();
    expect(importTranscript(text).sessions.map((s) => s.header.id)).toEqual([
      '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d',
      '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d-branch-1',
    ]);
    const named = importTranscript(text, { sessionId: 'mine' }).sessions;
    expect(named.map((s) => s.header.id)).toEqual(['mine', 'mine-branch-1']);
    expect(named[1]?.header.parentSession).toBe('mine');
  });
});

describe('refusals', () => {
  const refusal = (run: () => unknown): ImportError => {
    try {
      run();
    } catch (error) {
      if (ImportError.is(error)) return error;
      throw error;
    }
    throw new Error('expected an ImportError');
  };

  it('text of no known format is refused naming what was expected', () => {
    const error = refusal(() => importTranscript('{"hello":"world"}\n{"a":1}\n'));
    expect(error.code).toBe('UNKNOWN_FORMAT');
    expect(error.message).toContain('Claude Code');
    expect(error.message).toContain('Codex');
    expect(error.message).toContain('pi');
    expect(error.message).toContain('{"hello":"world"}');
  });

  it('a malformed line in the middle is skipped with a warning naming it, and refused with its line number when strict', () => {
    const lines = FIXTURES.pi.plain().split('\n');
    lines[40] = '{"type":"message", oops';
    const read = importTranscript(lines.join('\n'));
    expect(read.warnings.filter((warning) => warning.startsWith('line 41: not a JSON object'))).toHaveLength(1);
    expect(read.sessions).toStrictEqual(importTranscript([...lines.slice(0, 40), ...lines.slice(41)].join('\n')).sessions);
    const error = refusal(() => importTranscript(lines.join('\n'), { strict: true }));
    expect(error.code).toBe('MALFORMED_LINE');
    expect(error.line).toBe(41);
    expect(error.message).toMatch(/^line 41: expected one JSON object per line/);
  });

  it('a format that does not fit is refused', () => {
    expect(refusal(() => importTranscript(FIXTURES.pi.plain(), { format: 'codex' })).code).toBe('FORMAT_MISMATCH');
  });

  it('empty text and bad options are refused', () => {
    expect(refusal(() => importTranscript('\n\n')).code).toBe('EMPTY_TRANSCRIPT');
    expect(refusal(() => importTranscript(FIXTURES.pi.plain(), { sessionId: '../escape' })).code).toBe('INVALID_OPTION');
  });
});
