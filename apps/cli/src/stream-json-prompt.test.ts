import { describe, expect, it } from 'vitest';
import { streamJsonPrompt } from './stream-json-prompt.js';

describe('streamJsonPrompt', () => {
  it("joins every user message's text, string or text blocks, skipping blank lines", () => {
    const input = [
      JSON.stringify({ type: 'user', message: { role: 'user', content: 'one' } }),
      '',
      JSON.stringify({ type: 'user', message: { role: 'user', content: [{ type: 'text', text: 'two' }] } }),
    ].join('\n');
    expect(streamJsonPrompt(input)).toBe('one\n\ntwo');
  });

  it('refuses USAGE naming the line: not JSON, not a user message, a null message, a non-text block', () => {
    for (const [input, received] of [
      ['nope', /line 1 has text that is not JSON/],
      ['\n{"type":"assistant"}', /line 2 has a value of type 'assistant'/],
      ['{"type":"user","message":null}', /line 1 has a value of type 'user'/],
      ['{"type":"user","message":{"content":[{"type":"image"}]}}', /content block of type 'image'/],
      ['null', /line 1 has a value of type 'undefined'/],
    ] as const) {
      expect(() => streamJsonPrompt(input)).toThrow(received);
    }
  });
});
