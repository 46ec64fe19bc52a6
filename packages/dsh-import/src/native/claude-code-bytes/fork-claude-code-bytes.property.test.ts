/**
 * Property: the byte path of the native fork (`forkNativeFile` on a Claude Code file: lines read
 * through their skeleton, the chain copied as byte ranges) gives exactly the child, cut, closers and
 * counts of the text path (`forkNativeTranscript`: every line parsed), on generated Claude Code files
 * whose lines are varied the ways the scanner must not be fooled by — escaped quotes and unicode in
 * strings, keys in other orders or spelled with escapes, nested objects holding keys named like the
 * scanned ones, duplicate keys, whitespace, ids that are not strings.
 */
import { Buffer } from 'node:buffer';
import fc from 'fast-check';
import { claudeCodeTranscript } from '@dsh/test-utils';
import { file, generated, uuidsOf } from '../../__fixtures__/mutated-claude-code-file.js';
import { describe, expect, it } from 'vitest';
import { forkNativeFile, forkNativeTranscript } from '../../index.js';
import { forkClaudeCodeBytes } from './fork-claude-code-bytes.js';

describe('forkNativeFile (Claude Code, byte path)', () => {
  it('gives byte for byte the child, cut, closers and counts of forkNativeTranscript, at any entry uuid', () => {
    fc.assert(
      fc.property(file, fc.nat(), (options, pick) => {
        const text = generated(options);
        const uuids = uuidsOf(text);
        fc.pre(uuids.length > 0);
        const at = uuids[pick % uuids.length] as string;
        const bytes = Buffer.from(text, 'utf8');
        const forkOptions = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 1_800_000_000_000 };
        const reference = forkNativeTranscript(text, forkOptions);
        // The byte path itself made this fork (it did not hand it to the text path).
        const fast = forkClaudeCodeBytes(bytes, forkOptions);
        expect(fast).toBeDefined();
        const { text: referenceText, ...referenceFacts } = reference;
        const { bytes: fastBytes, chunks: _chunks, ...fastFacts } = fast ?? forkNativeFile(bytes, forkOptions);
        expect(Buffer.from(fastBytes).toString('utf8')).toBe(referenceText);
        expect(Buffer.from(fastBytes).equals(Buffer.from(referenceText, 'utf8'))).toBe(true);
        expect(fastFacts).toStrictEqual(referenceFacts);
      }),
      { numRuns: 60 },
    );
  });

  it('gives the bytes of forkNativeTranscript when the child id is not as long as the source id (the replacement moves the bytes after it)', () => {
    fc.assert(
      fc.property(
        file,
        fc.nat(),
        fc.constantFrom('c1', 'child-session-with-a-much-longer-id-than-a-uuid-has'),
        (options, pick, sessionId) => {
          const text = generated(options);
          const uuids = uuidsOf(text);
          fc.pre(uuids.length > 0);
          const forkOptions = { at: uuids[pick % uuids.length] as string, sessionId, now: 1_800_000_000_000 };
          const fast = forkClaudeCodeBytes(Buffer.from(text, 'utf8'), forkOptions);
          expect(fast).toBeDefined();
          expect(Buffer.from(fast?.bytes ?? []).toString('utf8')).toBe(forkNativeTranscript(text, forkOptions).text);
        },
      ),
      { numRuns: 30 },
    );
  });

  it('replaces the session id wherever the text path does: nested, in an array, after an escaped quote in a longer key', () => {
    const lines = claudeCodeTranscript({ turns: 3 }).text.trimEnd().split('\n');
    const first = JSON.parse(lines.find((line) => line.includes('"sessionId"')) as string) as { sessionId: string };
    const id = JSON.stringify(first.sessionId);
    const extra = `"k\\"sessionId":${id},"deep":[{"sessionId":${id}},{"a":{"sessionId":${id},"xsessionId":${id}}}]`;
    const changed = lines.map((line, index) => (index % 3 === 1 ? line.replace(/\}$/, `,${extra}}`) : line));
    const text = `${changed.join('\n')}\n`;
    const at = uuidsOf(text).at(-1) as string;
    const options = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 0 };
    const fast = forkClaudeCodeBytes(Buffer.from(text, 'utf8'), options);
    expect(fast).toBeDefined();
    const expected = forkNativeTranscript(text, options).text;
    expect(Buffer.from(fast?.bytes ?? []).toString('utf8')).toBe(expected);
    // Each of those places was replaced (the longer key `xsessionId` is not the field).
    expect(expected.split(`"sessionId":${id}`)).toHaveLength(1);
    expect(expected).toContain(`"xsessionId":${id}`);
  });

  it('skips, as forkNativeTranscript does, a line whose string holds what JSON.parse refuses (named in warnings), and refuses it MALFORMED_LINE when strict', () => {
    const lines = claudeCodeTranscript({ turns: 4 }).text.trimEnd().split('\n');
    // The last line with a uuid (a real cut: the refusal must be the line's, not the REF's).
    const at = lines.map((line) => (JSON.parse(line) as { uuid?: string }).uuid).findLast((uuid) => typeof uuid === 'string') as string;
    for (const bad of ['"tab\there"', '"\\x41"', '"\\u12"']) {
      const broken = [...lines];
      // Past the first lines (those are parsed whole to tell the format).
      broken[29] = (broken[29] as string).replace(/\}$/, `,"x":${bad}}`);
      const text = `${broken.join('\n')}\n`;
      const lenient = { at, sessionId: 'c0ffee00-0000-4000-8000-000000000001', now: 0 };
      const skipped = forkNativeTranscript(text, lenient);
      expect(skipped.warnings).toStrictEqual([expect.stringMatching(/^line 30: not a JSON object/)]);
      expect(skipped.text).not.toContain(broken[29]);
      const onBytes = forkNativeFile(Buffer.from(text, 'utf8'), lenient);
      expect([Buffer.from(onBytes.bytes).toString('utf8'), onBytes.warnings]).toStrictEqual([skipped.text, skipped.warnings]);
      const options = { ...lenient, strict: true };
      expect(() => forkNativeTranscript(text, options)).toThrow(expect.objectContaining({ code: 'MALFORMED_LINE', line: 30 }));
      expect(() => forkNativeFile(Buffer.from(text, 'utf8'), options)).toThrow(
        expect.objectContaining({ code: 'MALFORMED_LINE', line: 30 }),
      );
    }
  });
});
