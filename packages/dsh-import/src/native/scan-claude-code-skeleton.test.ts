/**
 * `scanClaudeCodeSkeleton` on single lines: which keys it reads, how it decodes them, and what it
 * declines (the caller then parses the line). The property test of the byte path
 * (`fork-claude-code-file.property.test.ts`) holds it equal to `JSON.parse` on generated files.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { scanClaudeCodeSkeleton } from './scan-claude-code-skeleton.js';

describe('scanClaudeCodeSkeleton', () => {
  const scan = (raw: string) => {
    const buffer = Buffer.from(raw, 'utf8');
    return scanClaudeCodeSkeleton(buffer, 0, buffer.length);
  };

  it('takes top-level keys only, whatever nested objects and string contents hold', () => {
    const raw = JSON.stringify({
      toolUseResult: { uuid: 'nested', type: 'assistant', message: { id: 'nested-message' } },
      message: {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 'call-1', content: '"uuid":"in-text"' }],
        meta: { id: 'deep', content: 'x' },
      },
      type: 'user',
      uuid: 'top',
      sessionId: 's-1',
    });
    expect(scan(raw)).toMatchObject({
      type: 'user',
      uuid: 'top',
      sessionId: 's-1',
      message: { id: undefined, content: [{ type: 'tool_result', tool_use_id: 'call-1' }] },
    });
  });

  it('decodes escaped keys and values, keeps the last of a duplicated key, marks an escaped interruption', () => {
    expect(
      scan('{"\\u0075uid":"a\\"b","uuid":"c\\u00e9","type":"user","message":{"content":"\\u005bRequest interrupted by user]"}}'),
    ).toMatchObject({
      uuid: 'cé',
      message: { content: '[Request interrupted by user' },
    });
  });

  it('declines what it does not read itself: whitespace between tokens, an id that is not a string, text that is not JSON', () => {
    expect(scan('{ "uuid":"a"}')).toBeUndefined();
    expect(scan('{"message":{"content":[{"type":"tool_use","id":7}]}}')).toBeUndefined();
    expect(scan('{"uuid":"a",}')).toBeUndefined();
    expect(scan('{"uuid":"a","n":01}')).toBeUndefined();
    expect(scan('{"uuid":"a","b":tru}')).toBeUndefined();
    expect(scan('{"uuid":"a"')).toBeUndefined();
  });

  it('declines a string JSON.parse refuses: a raw control character, an unknown escape, a short \\u escape', () => {
    expect(scan('{"uuid":"a","x":"tab\there"}')).toBeUndefined();
    expect(scan('{"uuid":"a","x":"nul\u0000"}')).toBeUndefined();
    expect(scan('{"uuid":"a","x":"\\x41"}')).toBeUndefined();
    expect(scan('{"uuid":"a","x":"\\u12"}')).toBeUndefined();
    expect(scan('{"uuid":"a","x":"\\u12g4"}')).toBeUndefined();
    // The same lines with the escapes JSON allows are read.
    expect(scan('{"uuid":"a","x":"tab\\there \\u0041 \\/ \\\\"}')).toMatchObject({ uuid: 'a' });
  });
});
