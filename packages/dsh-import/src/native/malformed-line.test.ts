/**
 * SPEC §26 "A malformed line in the middle": fork, repair and import read a Claude Code, Codex or
 * pi file holding a line that is not JSON as the tools do — the line skipped, a warning naming it —
 * so each gives what it gives for the file without that line, and the line is never copied into a
 * child; `strict` keeps the refusal (`MALFORMED_LINE`, that line).
 */
import { Buffer } from 'node:buffer';
import { claudeCodeTranscript, codexTranscript, piTranscript } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript, importTranscript, repairNativeTranscript } from '../index.js';

const BAD = '{"type":"message","message":{"role":"assistant","content":[{"type":"text","text":"cut off';
const NOW = 1_800_000_000_000;

const FILES = {
  'claude-code': claudeCodeTranscript({ turns: 3, endMidCall: true }).text,
  codex: codexTranscript({ turns: 3, endMidCall: true }).text,
  pi: piTranscript({ turns: 3, endMidCall: true }).text,
};

/** `text` with `line` written before its line `at` (1-based). */
function withLine(text: string, at: number, line: string): string {
  const lines = text.split('\n');
  return [...lines.slice(0, at - 1), line, ...lines.slice(at - 1)].join('\n');
}

describe('a malformed line in the middle of a session file', () => {
  for (const [format, clean] of Object.entries(FILES)) {
    const at = Math.floor(clean.split('\n').length / 2);
    const broken = withLine(clean, at, BAD);
    // The file without it: a blank line in its place keeps every line's number (Codex keys by them).
    const without = withLine(clean, at, '');
    const warning = expect.stringMatching(new RegExp(`^line ${String(at)}: not a JSON object`));

    it(`${format}: import skips it with a warning naming the line, and reads the rest as the file without it`, () => {
      const read = importTranscript(broken);
      expect(read.warnings).toContainEqual(warning);
      expect(read.sessions).toStrictEqual(importTranscript(without).sessions);
      expect(() => importTranscript(broken, { strict: true })).toThrow(expect.objectContaining({ code: 'MALFORMED_LINE', line: at }));
    });

    it(`${format}: fork at every seq after it gives the child of the file without it (the line never copied), on the text and file paths`, () => {
      const seqs = importTranscript(clean).sessions[0]?.events.length ?? 0;
      for (let n = Math.floor(seqs / 2); n < seqs; n += 3) {
        const options = { at: `seq:${String(n)}`, sessionId: 'c0ffee00-0000-4000-8000-000000000003', now: NOW, parentFile: '/p.jsonl' };
        let expected;
        try {
          expected = forkNativeTranscript(without, options);
        } catch (error) {
          // A seq the file without it cannot be cut at is refused alike.
          expect(() => forkNativeTranscript(broken, options)).toThrow(expect.objectContaining({ code: (error as { code: string }).code }));
          continue;
        }
        const text = forkNativeTranscript(broken, options);
        expect(text.warnings).toStrictEqual([warning]);
        expect(text.text).toBe(expected.text);
        expect(text.text).not.toContain('cut off');
        expect(Buffer.from(forkNativeFile(Buffer.from(broken, 'utf8'), options).bytes).toString('utf8')).toBe(expected.text);
        expect(() => forkNativeTranscript(broken, { ...options, strict: true })).toThrow(
          expect.objectContaining({ code: 'MALFORMED_LINE', line: at }),
        );
      }
    });

    it(`${format}: repair closes the same calls, leaving the line where it is`, () => {
      const expected = repairNativeTranscript(without, { now: NOW });
      const repaired = repairNativeTranscript(broken, { now: NOW });
      expect(expected.closedCalls.length).toBeGreaterThan(0);
      expect({ ...repaired, warnings: [] }).toStrictEqual({ ...expected, warnings: [] });
      expect(repaired.warnings).toStrictEqual([warning]);
      expect(() => repairNativeTranscript(broken, { now: NOW, strict: true })).toThrow(
        expect.objectContaining({ code: 'MALFORMED_LINE', line: at }),
      );
    });
  }

  it('a text no line of which is JSON is still refused MALFORMED_LINE at its first line', () => {
    expect(() => importTranscript('just some notes\nnot a session\n')).toThrow(
      expect.objectContaining({ code: 'MALFORMED_LINE', line: 1 }),
    );
    expect(() => forkNativeTranscript('just some notes\nnot a session\n', { at: 'seq:1', sessionId: 'x', now: 0 })).toThrow(
      expect.objectContaining({ code: 'MALFORMED_LINE', line: 1 }),
    );
  });
});
