/**
 * SPEC §13 + §16 — reasoning imported from another tool goes back to the provider it came from when
 * the session is continued: Claude Code thinking (signature, redacted data) to the Anthropic adapter,
 * pi `openai-completions` reasoning to the OpenAI-compatible adapter in its field. Checks that the
 * importer and the adapters agree on `providerData`; both adapters talk to a local server.
 */
import { claudeCodeTranscript, startModelServer, streamedReply, type ModelServer } from '@dsh/test-utils';
import { Agent, createAnthropicModel, createOpenAIModel, type Model } from 'dsh-agent';
import { CURRENT_FORMAT_VERSION, validate } from 'dsh-codec';
import { importTranscript } from 'dsh-import';
import { createMemoryStore, type Session } from 'dsh-session';
import { afterEach, describe, expect, it } from 'vitest';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function continueWith(model: Model, session: Session): Promise<void> {
  const agent = new Agent({ session, model, tools: [] });
  const { inputId } = agent.enqueue('Carry on.');
  expect(await agent.result(inputId)).toMatchObject({ isError: false });
  await agent.close();
}

describe('§13/§16 imported reasoning goes back to its provider', () => {
  it('Claude Code thinking and redacted thinking reach the Anthropic API verbatim after a fork mid-turn', async () => {
    const text = claudeCodeTranscript({ turns: 6 }).text;
    const thinking = text
      .split('\n')
      .filter((line) => line.includes('"type":"thinking"') || line.includes('"type":"redacted_thinking"'))
      .map((line) => (JSON.parse(line) as { message: { content: object[] } }).message.content[0]);
    expect(thinking.length).toBeGreaterThan(1);
    const { sessions } = importTranscript(text);
    const store = createMemoryStore();
    await store.import(sessions[0]!);
    const main = sessions[0]!;
    const lastCall = main.events.findLast((event) => event.type === 'tool/call')!;
    const child = await store.fork(main.header.id, { atSeq: lastCall.seq });
    server = await startModelServer(() => streamedReply('anthropic', { text: 'Done.' }));
    await continueWith(
      createAnthropicModel({ model: 'claude-sonnet-4-5', baseUrl: server.origin, apiKey: 'k', retry: { maxAttempts: 1 } }),
      child,
    );
    const sent = (server.requests[0]?.body as { messages: { role: string; content: { type: string }[] }[] }).messages
      .filter((message) => message.role === 'assistant')
      .flatMap((message) => message.content)
      .filter((block) => block.type === 'thinking' || block.type === 'redacted_thinking');
    // Every source block up to the cut, in order, exactly as Claude Code stored it.
    expect(sent).toEqual(thinking.slice(0, sent.length));
    expect(sent.length).toBeGreaterThan(1);
    expect(validate(CURRENT_FORMAT_VERSION, { header: child.header, events: child.events })).toEqual([]);
    await store.close();
  });

  it('pi reasoning of an OpenAI-compatible provider goes back in its field in a tool-using turn', async () => {
    const entry = (id: string, parentId: string | null, message: object) =>
      JSON.stringify({ type: 'message', id, parentId, timestamp: `2026-11-30T10:00:0${id.slice(-1)}.000Z`, message });
    const text = `${[
      JSON.stringify({ type: 'session', version: 3, id: 'pi-deepseek', timestamp: '2026-11-30T10:00:00.000Z', cwd: '/work/app' }),
      entry('e0000001', null, { role: 'user', content: 'read a.txt', timestamp: 1 }),
      entry('e0000002', 'e0000001', {
        role: 'assistant',
        api: 'openai-completions',
        provider: 'deepseek',
        model: 'deepseek-reasoner',
        content: [
          { type: 'thinking', thinking: 'I should read it.', thinkingSignature: 'reasoning_content' },
          { type: 'toolCall', id: 'call_1', name: 'read', arguments: { path: 'a.txt' } },
        ],
        stopReason: 'toolUse',
      }),
      entry('e0000003', 'e0000002', {
        role: 'toolResult',
        toolCallId: 'call_1',
        toolName: 'read',
        content: [{ type: 'text', text: 'héllo' }],
        isError: false,
      }),
    ].join('\n')}\n`;
    const { sessions } = importTranscript(text);
    const store = createMemoryStore();
    await store.import(sessions[0]!);
    // The file ends inside the tool-using turn: opening it closes the turn, the next one continues.
    const session = await store.open('pi-deepseek');
    server = await startModelServer(() => streamedReply('chat', { text: 'Done.' }));
    await continueWith(
      createOpenAIModel({ model: 'deepseek-reasoner', baseUrl: server.origin, apiKey: 'k', retry: { maxAttempts: 1 } }),
      session,
    );
    const sent = (server.requests[0]?.body as { messages: { role: string; reasoning_content?: string }[] }).messages;
    expect(sent.find((message) => message.role === 'assistant')?.reasoning_content).toBe('I should read it.');
    await store.close();
  });
});
