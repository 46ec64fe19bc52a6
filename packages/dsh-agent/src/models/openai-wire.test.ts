import { describe, expect, it } from 'vitest';
// The wire mapping is internal to the OpenAI adapter; tested directly because HTTP would hide which part dropped what.
import { toWireMessages } from './openai-wire.js';

describe('toWireMessages', () => {
  it('never sends a reasoning block as text, hidden or not', () => {
    const wire = toWireMessages(undefined, [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'Why?' }] },
      {
        id: 'a1',
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'private chain of thought', providerData: { signature: 'sig' } },
          { type: 'text', text: 'Because.' },
          { type: 'reasoning', text: '' },
          { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' },
        ],
      },
      { id: 'r1', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false },
    ]);
    expect(wire).toEqual([
      { role: 'user', content: 'Why?' },
      { role: 'assistant', content: 'Because.', tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
    ]);
    expect(JSON.stringify(wire)).not.toContain('private chain of thought');
  });

  it("sends an OpenAI-compatible provider's reasoning back in its own field, only in turns that called a tool", () => {
    const reasoning = (text: string, field: string, wire = 'openai-chat') => ({
      type: 'reasoning' as const,
      text,
      providerData: { wire, field },
    });
    const wire = toWireMessages(undefined, [
      { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] },
      { id: 'a1', role: 'assistant', content: [reasoning('greet', 'reasoning_content'), { type: 'text', text: 'hello' }] },
      { id: 'u2', role: 'user', content: [{ type: 'text', text: 'read' }] },
      {
        id: 'a2',
        role: 'assistant',
        content: [
          reasoning('read it', 'reasoning'),
          reasoning('signed', 'x', 'anthropic-messages'),
          { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' },
        ],
      },
      { id: 'r1', role: 'tool', callId: 'c1', content: [{ type: 'text', text: 'ok' }], isError: false },
      { id: 'a3', role: 'assistant', content: [reasoning('done', 'reasoning_content'), { type: 'text', text: 'read.' }] },
    ]);
    expect(wire).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
      { role: 'user', content: 'read' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'read', arguments: '{}' } }],
        reasoning: 'read it',
      },
      { role: 'tool', tool_call_id: 'c1', content: 'ok' },
      { role: 'assistant', content: 'read.', reasoning_content: 'done' },
    ]);
  });
});
