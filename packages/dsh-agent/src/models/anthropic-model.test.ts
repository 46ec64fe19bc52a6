import { afterEach, describe, expect, it } from 'vitest';
import { CURRENT_FORMAT_VERSION, validate, type SessionEvent } from 'dsh-codec';
import { createMemoryStore, type Session } from 'dsh-session';
import { splitStream, startModelServer, type ModelServer, type ModelServerReply } from '@dsh/test-utils';
import {
  Agent,
  AgentError,
  createAnthropicModel,
  type AgentDelta,
  type AnthropicModelOptions,
  type ModelDelta,
  type ModelMessage,
} from 'dsh-agent';
import { dataOf, rejectionOf, typesFrom } from '../__fixtures__/agent-fixtures.js';
import { anthropicPairingViolation, anthropicStream, readWireFixture } from './__fixtures__/wire-fixtures.js';
import { readFileStub } from './__fixtures__/read-file-stub.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A Messages endpoint that refuses (400, Anthropic's wording) what the real API refuses, else replies. */
async function strictServer(answer: (index: number) => ModelServerReply, options: Partial<AnthropicModelOptions> = {}) {
  server = await startModelServer((request, index) => {
    if (request.path !== '/v1/messages')
      return { status: 404, json: { type: 'error', error: { type: 'not_found_error', message: `Not found: ${request.path}` } } };
    const violation = anthropicPairingViolation(request.body);
    if (violation !== undefined)
      return { status: 400, json: { type: 'error', error: { type: 'invalid_request_error', message: violation } } };
    return answer(index);
  });
  return createAnthropicModel({
    model: 'claude-sonnet-4-5',
    env: { ANTHROPIC_BASE_URL: server.origin, ANTHROPIC_API_KEY: 'sk-ant-test' },
    retry: { sleep: () => Promise.resolve() },
    ...options,
  });
}

function bodyOf(index: number): {
  messages: { role: string; content: { type: string; [key: string]: unknown }[] }[];
  [key: string]: unknown;
} {
  return server!.requests[index]!.body as never;
}

function assertValidLog(session: Session): void {
  expect(validate(CURRENT_FORMAT_VERSION, { header: session.header, events: session.events })).toEqual([]);
}

const thinkingTool = readWireFixture('anthropic-stream-thinking-tool.sse');
const redactedText = readWireFixture('anthropic-stream-redacted-text.sse');
const SIGNATURE = /^EqQBCkgIBxABGAIiQL2h/;

describe('Anthropic Messages adapter (recorded streams over real HTTP)', () => {
  it('streams thinking, text and a tool_use split inside JSON, with signature, usage and stop reason', async () => {
    const model = await strictServer(() => ({ chunks: splitStream(thinkingTool, 9) }));
    const deltas: ModelDelta[] = [];
    const response = await model.complete({
      system: 'be brief',
      messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }],
      tools: [{ name: 'read_file', description: 'Read a file.', parameters: { type: 'object' } }],
      onDelta: (delta) => deltas.push(delta),
    });
    expect(response.text).toBe('Reading a.txt now.');
    expect(response.toolCalls).toEqual([{ id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'read_file', arguments: '{"path": "a.txt"}' }]);
    expect(response.reasoning).toHaveLength(1);
    expect(response.reasoning?.[0]?.text).toBe('The user wants a.txt; I will read it withread_file.');
    expect(response.reasoning?.[0]?.providerData).toEqual({
      wire: 'anthropic-messages',
      signature: expect.stringMatching(SIGNATURE) as unknown,
    });
    expect(response.usage).toEqual({ inputTokens: 1210 + 2048, outputTokens: 97, cacheReadTokens: 2048, cacheWriteTokens: 0 });
    expect(response.stopReason).toBe('tool-calls');
    expect(
      deltas
        .filter((delta) => delta.reasoning !== undefined)
        .map((delta) => delta.reasoning)
        .join(''),
    ).toBe(response.reasoning?.[0]?.text);
    expect(
      deltas
        .filter((delta) => delta.text !== undefined)
        .map((delta) => delta.text)
        .join(''),
    ).toBe('Reading a.txt now.');
    const request = server!.requests[0]!;
    expect(request.headers['x-api-key']).toBe('sk-ant-test');
    expect(request.headers['anthropic-version']).toBe('2023-06-01');
    expect(request.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 8192,
      system: 'be brief',
      messages: [{ role: 'user', content: [{ type: 'text', text: 'read a.txt' }] }],
      tools: [{ name: 'read_file', description: 'Read a file.', input_schema: { type: 'object' } }],
      stream: true,
    });
  });

  it('keeps redacted_thinking data with empty text, and cache-write usage', async () => {
    const model = await strictServer(() => ({ chunks: splitStream(redactedText, 13) }));
    const response = await model.complete({ messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] });
    expect(response.reasoning).toEqual([
      { text: '', providerData: { wire: 'anthropic-messages', redactedData: expect.stringMatching(/^EmwKAhgB/) as unknown } },
    ]);
    expect(response.text).toBe('a.txt says “héllo”.');
    expect(response.usage).toEqual({ inputTokens: 1342 + 1290, outputTokens: 31, cacheReadTokens: 0, cacheWriteTokens: 1290 });
    expect(response.stopReason).toBe('end');
  });

  it('retries an overloaded_error event before any output, then gives up with its message', async () => {
    const model = await strictServer(() => ({ chunks: [readWireFixture('anthropic-stream-overloaded.sse')] }), {
      retry: { sleep: () => Promise.resolve(), maxAttempts: 2 },
    });
    const error = await rejectionOf(
      model.complete({ messages: [{ id: 'u', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [] }),
    );
    expect(AgentError.is(error) && error.code).toBe('MODEL_STREAM_ERROR');
    expect((error as AgentError).status).toBe(529);
    expect((error as Error).message).toBe('anthropic: the stream reported an error: Overloaded (overloaded_error) (after 2 attempts)');
    expect(server!.requests).toHaveLength(2);
  });

  it('sends signed thinking, redacted thinking and tool results back; renames ids repeated across turns', async () => {
    const model = await strictServer(() => ({ chunks: [anthropicStream({ id: 'msg_x', text: 'ok' })] }));
    const call = (id: string): ModelMessage[] => [
      {
        id: `a-${id}`,
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'think', providerData: { wire: 'anthropic-messages', signature: 'sig-1' } },
          { type: 'reasoning', text: '', providerData: { wire: 'anthropic-messages', redactedData: 'opaque' } },
          { type: 'reasoning', text: 'from another provider', providerData: { wire: 'openai-chat', field: 'reasoning_content' } },
          { type: 'tool-call', id, name: 'read_file', arguments: '{"path":"a.txt"}' },
        ] as never,
      },
      { id: `r-${id}`, role: 'tool', callId: id, content: [{ type: 'text', text: 'héllo' }], isError: false },
    ];
    await model.complete({
      messages: [
        { id: 'u1', role: 'user', content: [{ type: 'text', text: 'one' }] },
        ...call('call_0'),
        { id: 'u2', role: 'user', content: [{ type: 'text', text: 'two' }] },
        ...call('call_0'),
      ],
      tools: [],
    });
    expect(server!.requests).toHaveLength(1);
    const messages = bodyOf(0).messages;
    expect(messages[1]?.content).toEqual([
      { type: 'thinking', thinking: 'think', signature: 'sig-1' },
      { type: 'redacted_thinking', data: 'opaque' },
      { type: 'tool_use', id: 'call_0', name: 'read_file', input: { path: 'a.txt' } },
    ]);
    expect(messages[2]?.content).toEqual([
      { type: 'tool_result', tool_use_id: 'call_0', content: 'héllo' },
      { type: 'text', text: 'two' },
    ]);
    expect(messages[3]?.content[2]).toEqual({ type: 'tool_use', id: 'toolu_dsh_1', name: 'read_file', input: { path: 'a.txt' } });
    expect(messages[4]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_dsh_1', content: 'héllo' }]);
  });
});

describe('the agent loop over the Anthropic adapter (strict local server)', () => {
  it('runs a two-step tool-using turn from recorded streams, pairing the result with its tool_use', async () => {
    const model = await strictServer((index) => ({ chunks: splitStream(index === 0 ? thinkingTool : redactedText, 21) }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [readFileStub], system: 'be brief', cwd: process.cwd() });
    const deltas: AgentDelta[] = [];
    agent.subscribeDeltas((delta) => deltas.push(delta));
    agent.enqueue('read a.txt');
    expect(await agent.idle()).toMatchObject({ isError: false, text: 'a.txt says “héllo”.' });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/message',
      'tool/call',
      'tool/result',
      'step/end',
      'step/start',
      'assistant/message',
      'step/end',
      'turn/end',
    ]);
    expect(dataOf<{ usage: object }>(session.events, 'assistant/message')[0]?.usage).toEqual({
      inputTokens: 3258,
      outputTokens: 97,
      cacheReadTokens: 2048,
      cacheWriteTokens: 0,
    });
    const second = bodyOf(1);
    expect(second.system).toBe('be brief');
    expect(second.messages.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    expect(second.messages[1]?.content.map((block) => block.type)).toEqual(['thinking', 'text', 'tool_use']);
    expect(second.messages[2]?.content).toEqual([{ type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', content: 'héllo' }]);
    expect(deltas.some((delta) => delta.reasoning !== undefined && delta.step === 1)).toBe(true);
    assertValidLog(session);
  });

  it('keeps working when the provider reuses a call id in a later turn', async () => {
    const model = await strictServer((index) => ({
      chunks: [
        index % 2 === 0
          ? anthropicStream({ id: `msg_${index}`, toolCalls: [{ id: 'toolu_same', name: 'read_file', input: '{"path":"a.txt"}' }] })
          : anthropicStream({ id: `msg_${index}`, text: `done ${index}` }),
      ],
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [readFileStub], cwd: process.cwd() });
    for (const prompt of ['one', 'two', 'three']) {
      agent.enqueue(prompt);
      expect(await agent.idle()).toMatchObject({ isError: false });
    }
    expect(server!.requests).toHaveLength(6);
    assertValidLog(session);
  });

  it('ends the turn error with the provider message after repeated 529s, appending nothing of them', async () => {
    const model = await strictServer(() => ({
      status: 529,
      json: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model });
    agent.enqueue('hi');
    expect((await agent.idle())?.reason).toEqual({
      kind: 'error',
      error: {
        code: 'MODEL_HTTP_ERROR',
        message: `anthropic: ${server!.origin}/v1/messages answered 529: Overloaded (overloaded_error) (after 4 attempts)`,
      },
    });
    expect(typesFrom(session.events, session.firstLiveSeq)).toEqual([
      'input/queued',
      'turn/start',
      'user/message',
      'step/start',
      'step/end',
      'turn/end',
    ]);
  });

  it('cancels mid-stream: the turn ends cancelled and the log stays valid', async () => {
    const model = await strictServer(() => ({
      chunks: splitStream(thinkingTool.slice(0, thinkingTool.indexOf('signature_delta')), 200),
      after: 'hang',
    }));
    const session = await createMemoryStore().create();
    const agent = new Agent({ session, model, tools: [readFileStub], cwd: process.cwd() });
    agent.subscribeDeltas(() => agent.cancel());
    agent.enqueue('read a.txt');
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
    const model = await strictServer((index) => ({ chunks: [index === 0 ? thinkingTool : redactedText] }));
    const store = createMemoryStore();
    const parent = await store.create({ id: 'parent' });
    const agent = new Agent({ session: parent, model, tools: [readFileStub], cwd: process.cwd() });
    agent.enqueue('read a.txt');
    await agent.idle();
    // Cut at the tool/call: started, no result in the child.
    const started = parent.events.find((event: SessionEvent) => event.type === 'tool/call');
    const child = await store.fork('parent', { atSeq: started!.seq, id: 'child' });
    const childAgent = new Agent({ session: child, model, tools: [readFileStub], cwd: process.cwd() });
    childAgent.enqueue('go on');
    expect(await childAgent.idle()).toMatchObject({ isError: false, turn: 2 });
    const sent = bodyOf(2).messages;
    expect(sent.map((message) => message.role)).toEqual(['user', 'assistant', 'user']);
    const results = sent[2]!.content;
    expect(results[0]).toMatchObject({ type: 'tool_result', tool_use_id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', is_error: true });
    expect(String(results[0]?.content)).toMatch(/forked/);
    expect(results[1]).toEqual({ type: 'text', text: 'go on' });
    assertValidLog(child);
  });
});
