import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, type Session } from 'dsh-session';
import { splitStream, startModelServer, type ModelServer, type ModelServerReply } from '@dsh/test-utils';
import { Agent, createOpenAIModel, defineTool, type AgentDelta, type Tool } from 'dsh-agent';
import { dataOf, typesFrom } from '../__fixtures__/agent-fixtures.js';
import { openAIPairingViolation, openAIStream, readWireFixture } from './__fixtures__/wire-fixtures.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const files: Record<string, string> = { 'a.txt': 'héllo', 'b.txt': '' };
const reads: string[] = [];
const readFile: Tool = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  input: z.strictObject({ path: z.string() }),
  effect: 'read-only',
  run: (args) => {
    reads.push(args.path);
    return files[args.path] ?? `no such file ${args.path}`;
  },
});

/**
 * A provider that checks what OpenAI checks: a request whose tool messages are not paired with
 * the assistant message declaring them gets the 400 OpenAI sends. Otherwise `answer` replies.
 */
async function strictServer(answer: (index: number) => ModelServerReply) {
  server = await startModelServer((request, index) => {
    const violation = openAIPairingViolation(request.body);
    if (violation !== undefined)
      return { status: 400, json: { error: { message: violation, type: 'invalid_request_error', param: 'messages', code: null } } };
    return answer(index);
  });
  return createOpenAIModel({
    model: 'gpt-4o-mini',
    baseUrl: `${server.origin}/v1`,
    apiKey: 'sk-test',
    retry: { sleep: () => Promise.resolve() },
  });
}

function messagesOf(index: number): unknown[] {
  return (server!.requests[index]!.body as { messages: unknown[] }).messages;
}

function assertValidLog(session: Session): void {
  expect(validate(CURRENT_FORMAT_VERSION, { header: session.header, events: session.events })).toEqual([]);
}

describe('the agent loop over the OpenAI-compatible adapter (strict local server)', () => {
  it('runs a two-step tool-using turn from recorded streams, with usage and live deltas', async () => {
    const model = await strictServer((index) => ({
      chunks: splitStream(readWireFixture(index === 0 ? 'openai-stream-tool-calls.sse' : 'openai-stream-text.sse'), 17),
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [readFile], system: 'be brief', cwd: process.cwd() });
    const deltas: AgentDelta[] = [];
    agent.subscribeDeltas((delta) => deltas.push(delta));
    agent.enqueue('read a.txt and b.txt');
    const result = await agent.idle();
    expect(result).toMatchObject({ isError: false, text: 'a.txt says “héllo”; b.txt is empty.' });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/message',
      'tool/call',
      'tool/result',
      'tool/call',
      'tool/result',
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
    const assistants = dataOf<{ usage?: object; message: { content: unknown[] } }>(session.events, 'assistant/message');
    expect(assistants[0]?.usage).toEqual({
      inputTokens: 412,
      outputTokens: 58,
      totalTokens: 470,
      cacheReadTokens: 256,
      reasoningTokens: 0,
    });
    expect(assistants[1]?.usage).toMatchObject({ inputTokens: 503, cacheReadTokens: 384 });
    expect(messagesOf(1)).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'read a.txt and b.txt' },
      {
        role: 'assistant',
        content: "I'll read both files.",
        tool_calls: [
          { id: 'call_Hk2mP9sQ4rT1vW8xY3zA6bC0', type: 'function', function: { name: 'read_file', arguments: '{"path": "a.txt"}' } },
          { id: 'call_Lm5nQ8rS2tU7vX1yZ4aB9cD3', type: 'function', function: { name: 'read_file', arguments: '{"path": "b.txt"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_Hk2mP9sQ4rT1vW8xY3zA6bC0', content: 'héllo' },
      { role: 'tool', tool_call_id: 'call_Lm5nQ8rS2tU7vX1yZ4aB9cD3', content: '' },
    ]);
    expect(
      deltas
        .filter((delta) => delta.step === 1)
        .map((delta) => delta.text)
        .join(''),
    ).toBe("I'll read both files.");
    expect(
      deltas
        .filter((delta) => delta.step === 2)
        .map((delta) => delta.text)
        .join(''),
    ).toBe('a.txt says “héllo”; b.txt is empty.');
    expect(deltas.every((delta) => delta.turn === 1)).toBe(true);
    expect(session.events.some((event) => JSON.stringify(event).includes('delta'))).toBe(false);
    assertValidLog(session);
  });

  it('keeps working when the provider numbers call ids per response and reuses them in later turns', async () => {
    // Turn n: step 1 calls read_file with id "call_0" (every turn), step 2 answers.
    const model = await strictServer((index) => ({
      chunks: [
        index % 2 === 0
          ? openAIStream({ id: `chatcmpl-${index}`, toolCalls: [{ id: 'call_0', name: 'read_file', arguments: '{"path":"a.txt"}' }] })
          : openAIStream({ id: `chatcmpl-${index}`, text: `answer ${index}` }),
      ],
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [readFile], cwd: process.cwd() });
    for (const prompt of ['first', 'second', 'third']) {
      agent.enqueue(prompt);
      expect(await agent.idle()).toMatchObject({ isError: false });
    }
    expect(server!.requests).toHaveLength(6);
    const last = messagesOf(5) as { role: string; tool_calls?: { id: string }[]; tool_call_id?: string }[];
    expect(last.map((message) => message.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(last.filter((message) => message.role === 'tool').map((message) => message.tool_call_id)).toEqual([
      'call_0',
      'call_0',
      'call_0',
    ]);
    assertValidLog(session);
  });

  it('appends nothing for a failed attempt: 429 with Retry-After, then one assistant message', async () => {
    const model = await strictServer((index) =>
      index === 0
        ? { status: 429, headers: { 'retry-after': '1' }, json: { error: { message: 'Rate limit reached', type: 'requests' } } }
        : { chunks: [openAIStream({ id: 'chatcmpl-ok', text: 'fine' })] },
    );
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model });
    agent.enqueue('hi');
    expect(await agent.idle()).toMatchObject({ isError: false, text: 'fine' });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
  });

  it('ends the turn error with the provider message after the last of repeated 500s', async () => {
    const model = await strictServer(() => ({
      status: 500,
      json: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } },
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model });
    agent.enqueue('hi');
    const result = await agent.idle();
    expect(result?.reason).toEqual({
      kind: 'error',
      error: {
        code: 'MODEL_HTTP_ERROR',
        message: `openai: ${server!.origin}/v1/chat/completions answered 500: The server had an error while processing your request. (server_error) (after 4 attempts)`,
      },
    });
    expect(server!.requests).toHaveLength(4);
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'step/end',
      'turn/end',
    ]);
    assertValidLog(session);
  });

  it('cancels mid-stream: the turn ends cancelled, nothing of the partial answer is kept', async () => {
    const stream = readWireFixture('openai-stream-text.sse');
    const model = await strictServer(() => ({ chunks: splitStream(stream.slice(0, 1200), 300), after: 'hang' }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model });
    agent.subscribeDeltas(() => agent.cancel());
    agent.enqueue('hi');
    expect((await agent.idle())?.reason).toEqual({ kind: 'cancelled' });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'step/end',
      'turn/end',
    ]);
    await server!.aborted;
    assertValidLog(session);
  });

  it('forks in the middle of a tool-using turn and continues the child against the strict server', async () => {
    const model = await strictServer((index) => ({
      chunks: [readWireFixture(index === 0 ? 'openai-stream-tool-calls.sse' : 'openai-stream-text.sse')],
    }));
    const store = createMemoryStore();
    const parent = await store.create({ id: 'parent' });
    const agent = new Agent({ session: parent, model, tools: [readFile], cwd: process.cwd() });
    agent.enqueue('read a.txt and b.txt');
    await agent.idle();
    // Cut right after the first call's result: the second call was declared and never started here.
    const firstResult = parent.events.find((event: SessionEvent) => event.type === 'tool/result');
    const child = await store.fork('parent', { atSeq: firstResult!.seq, id: 'child' });
    const childAgent = new Agent({ session: child, model, tools: [readFile], cwd: process.cwd() });
    childAgent.enqueue('go on');
    expect(await childAgent.idle()).toMatchObject({ isError: false, turn: 2 });
    const sent = messagesOf(2) as { role: string; tool_call_id?: string; content: string | null }[];
    expect(sent.map((message) => message.role)).toEqual(['system', 'user', 'assistant', 'tool', 'tool', 'user']);
    expect(sent[3]).toEqual({ role: 'tool', tool_call_id: 'call_Hk2mP9sQ4rT1vW8xY3zA6bC0', content: 'héllo' });
    expect(sent[4]?.tool_call_id).toBe('call_Lm5nQ8rS2tU7vX1yZ4aB9cD3');
    expect(sent[4]?.content).toMatch(/^Error: .*forked/);
    assertValidLog(child);
  });
});
