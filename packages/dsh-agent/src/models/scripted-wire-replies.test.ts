/**
 * dsh's two adapters read what the shared fake model server (`@dsh/test-utils`) writes on their
 * wires: a scripted reply's reasoning, text, tool calls and usage arrive whole, so a test scripting
 * a turn once can run it against either adapter and against the real tools alike.
 */
import { startModelServer, type ScriptedReply } from '@dsh/test-utils';
import { createAnthropicModel, createOpenAIModel, type ModelRequest } from 'dsh-agent';
import { describe, expect, it } from 'vitest';

const reply: ScriptedReply = {
  reasoning: 'The user wants a listing.',
  signature: 'sig-1',
  text: 'Listing.',
  toolCalls: [{ id: 'call_1', name: 'list_files', input: { path: '.' } }],
  usage: { input: 120, output: 7 },
};

const request: ModelRequest = {
  system: 'be brief',
  messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'list it' }] }],
  tools: [{ name: 'list_files', description: 'list', parameters: { type: 'object' } }],
};

describe('the adapters read the shared fake model server', () => {
  it('Anthropic Messages: signed thinking, text, the tool call and usage', async () => {
    await using server = await startModelServer({ anthropic: () => reply });
    const model = createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.origin, apiKey: 'k', retry: { maxAttempts: 1 } });
    const response = await model.complete(request);
    expect(response.reasoning?.map((part) => part.text)).toEqual(['The user wants a listing.']);
    expect(JSON.stringify(response.reasoning?.[0]?.providerData)).toContain('sig-1');
    expect(response.text).toBe('Listing.');
    expect(response.toolCalls).toMatchObject([{ id: 'call_1', name: 'list_files', arguments: '{"path":"."}' }]);
    expect(response.stopReason).toBe('tool-calls');
    expect(response.usage).toMatchObject({ inputTokens: 120, outputTokens: 7 });
    expect(server.modelRequests('anthropic')).toHaveLength(1);
  });

  it('OpenAI Chat Completions: reasoning_content, text, the tool call and usage', async () => {
    await using server = await startModelServer({ chat: () => reply });
    const model = createOpenAIModel({ model: 'local', baseUrl: `${server.origin}/v1`, retry: { maxAttempts: 1 } });
    const response = await model.complete(request);
    expect(response.reasoning?.map((part) => part.text)).toEqual(['The user wants a listing.']);
    expect(response.text).toBe('Listing.');
    expect(response.toolCalls).toMatchObject([{ id: 'call_1', name: 'list_files', arguments: '{"path":"."}' }]);
    expect(response.stopReason).toBe('tool-calls');
    expect(response.usage).toMatchObject({ inputTokens: 120, outputTokens: 7 });
    expect(server.modelRequests('chat')).toHaveLength(1);
  });
});
