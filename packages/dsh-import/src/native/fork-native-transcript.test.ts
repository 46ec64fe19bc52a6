/**
 * The native fork's refusals and guarantees on generated Claude Code, Codex and pi files: an
 * unknown REF names the valid ones, a cut keeps the chain's lines byte for byte, the closer text
 * is dsh-codec's, a seq inside an unsplittable entry is refused.
 */
import { claudeCodeTranscript } from '@dsh/test-utils';
import { syntheticResultText } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { Buffer } from 'node:buffer';
import { forkClaudeCodeEntries, forkNativeFile, forkNativeTranscript, ImportError, repairNativeTranscript } from '../index.js';

const SOURCE = [
  {
    type: 'user',
    uuid: 'u1',
    parentUuid: null,
    sessionId: 'parent-1',
    timestamp: '2026-01-01T00:00:00.000Z',
    message: { role: 'user', content: 'list files' },
  },
  {
    type: 'assistant',
    uuid: 'a1',
    parentUuid: 'u1',
    sessionId: 'parent-1',
    timestamp: '2026-01-01T00:00:01.000Z',
    message: { id: 'm1', role: 'assistant', content: [{ type: 'tool_use', id: 'call-1', name: 'Read', input: { file_path: 'x' } }] },
  },
  {
    type: 'user',
    uuid: 'r1',
    parentUuid: 'a1',
    sessionId: 'parent-1',
    timestamp: '2026-01-01T00:00:02.000Z',
    message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call-1', content: 'x body' }] },
  },
];
const text = `${SOURCE.map((line) => JSON.stringify(line)).join('\n')}\n`;

describe('forkNativeTranscript (Claude Code)', () => {
  it('cuts after a tool_use entry: the chain as written (sessionId changed) and one started, read-only closer', () => {
    const fork = forkNativeTranscript(text, { at: 'a1', sessionId: 'child-1', now: 0 });
    const lines = fork.text.trimEnd().split('\n');
    expect(lines.slice(0, 2)).toEqual(
      text
        .split('\n')
        .slice(0, 2)
        .map((line) => line.replace('"sessionId":"parent-1"', '"sessionId":"child-1"')),
    );
    const closer = JSON.parse(lines[2] ?? '{}') as { parentUuid: string; message: { content: { content: string; is_error: boolean }[] } };
    expect(closer.parentUuid).toBe('a1');
    expect(closer.message.content[0]).toMatchObject({ content: syntheticResultText('forked', true, 'read-only'), is_error: true });
    expect(fork).toMatchObject({ fileName: 'child-1.jsonl', parentSessionId: 'parent-1', inheritedEntryCount: 2 });
  });

  it('refuses an unknown REF with INVALID_CUT naming entries, and a seq past the end naming the range', () => {
    const unknown = (() => {
      try {
        forkNativeTranscript(text, { at: 'zz', sessionId: 'c', now: 0 });
      } catch (error) {
        return error;
      }
      return undefined;
    })();
    expect(ImportError.is(unknown) && unknown.code).toBe('INVALID_CUT');
    expect((unknown as Error).message).toContain('r1');
    expect(() => forkNativeTranscript(text, { at: 'seq:999', sessionId: 'c', now: 0 })).toThrow(/seqs 0\.\./);
  });

  it.each([undefined, '', 42])('refuses an at of %j with INVALID_OPTION, on the text path and the byte path alike', (at) => {
    const codeOf = (fork: () => unknown) => {
      try {
        fork();
      } catch (error) {
        return ImportError.is(error) ? error.code : String(error);
      }
      return 'no refusal';
    };
    const options = { at: at as unknown as string, sessionId: 'c', now: 0 };
    expect(codeOf(() => forkNativeTranscript(text, options))).toBe('INVALID_OPTION');
    expect(codeOf(() => forkNativeFile(Buffer.from(text, 'utf8'), options))).toBe('INVALID_OPTION');
  });

  it('the in-memory entry fork gives the same child as the file fork', () => {
    const fromFile = forkNativeTranscript(text, { at: 'a1', sessionId: 'child-1', now: 0 });
    const fromEntries = forkClaudeCodeEntries(SOURCE, { at: 'a1', sessionId: 'child-1', now: 0 });
    expect(fromEntries.entries).toEqual(
      fromFile.text
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line) as unknown),
    );
    expect(fromEntries.inheritedEntryCount).toBe(2);
  });

  it('repair appends interrupted closers only when the last step is open', () => {
    expect(repairNativeTranscript(text, { now: 0 }).appended).toBe('');
    const open = `${text.split('\n').slice(0, 2).join('\n')}\n`;
    const repaired = repairNativeTranscript(open, { now: 0 });
    expect(repaired.closedCalls.map((call) => call.callId)).toEqual(['call-1']);
    expect(repaired.appended).toContain(JSON.stringify(syntheticResultText('interrupted', true, 'read-only')));
    expect(repaired.torn).toBe('');
  });

  it('repair names a torn last line to move out, and starts a whole line without its newline on a fresh line', () => {
    const open = text.split('\n').slice(0, 2).join('\n');
    const torn = repairNativeTranscript(`${open}\n{"type":"user","uuid":"u9`, { now: 0 });
    expect(torn.torn).toBe('{"type":"user","uuid":"u9');
    expect(torn.appended.startsWith('{')).toBe(true);
    const whole = repairNativeTranscript(open, { now: 0 });
    expect(whole.torn).toBe('');
    expect(whole.appended.startsWith('\n{')).toBe(true);
    expect(JSON.parse(`${open}${whole.appended}`.split('\n')[2] as string)).toMatchObject({ type: 'user' });
  });

  it('forks a generated transcript at every entry uuid without refusing one', () => {
    const generated = claudeCodeTranscript({ turns: 4, branchAtTurn: 3 });
    const uuids = generated.text
      .trimEnd()
      .split('\n')
      .map((line) => (JSON.parse(line) as { uuid?: string }).uuid)
      .filter((uuid): uuid is string => uuid !== undefined);
    for (const uuid of uuids)
      expect(forkNativeTranscript(generated.text, { at: uuid, sessionId: 'c', now: 0 }).inheritedEntryCount).toBeGreaterThan(0);
  });
});
