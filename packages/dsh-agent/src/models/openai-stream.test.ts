import { afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { splitStream, startModelServer, type ModelServer, type ModelServerReply, type ModelServerRequest } from '@dsh/test-utils';
import { AgentError, createOpenAIModel, type ModelDelta, type ModelRequest, type OpenAIModelOptions } from 'dsh-agent';
import { readWireFixture } from './__fixtures__/wire-fixtures.js';
import { rejectionOf } from '../__fixtures__/agent-fixtures.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** Delays asked of the retry loop, resolved at once: the policy is checked without waiting. */
function recordingSleep() {
  const delays: number[] = [];
  return {
    delays,
    sleep: (ms: number) => {
      delays.push(ms);
      return Promise.resolve();
    },
  };
}

async function serve(handler: (request: ModelServerRequest, index: number) => ModelServerReply, options: Partial<OpenAIModelOptions> = {}) {
  server = await startModelServer(handler);
  return createOpenAIModel({ model: 'gpt-4o-mini', baseUrl: `${server.origin}/v1`, apiKey: 'sk-test', ...options });
}

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  messages: [{ id: 'u1', role: 'user', content: [{ type: 'text', text: 'read a.txt and b.txt' }] }],
  tools: [{ name: 'read_file', description: 'read', parameters: { type: 'object' } }],
  ...extra,
});

const toolCallsStream = readWireFixture('openai-stream-tool-calls.sse');
const textStream = readWireFixture('openai-stream-text.sse');
const deepseekStream = readWireFixture('deepseek-stream-reasoning-tool.sse');

describe('OpenAI-compatible streaming (recorded Chat Completions streams over real HTTP)', () => {
  it('asks for a stream with usage and assembles tool calls whose deltas are split inside JSON', async () => {
    const model = await serve(() => ({ chunks: splitStream(toolCallsStream, 7) }));
    const deltas: ModelDelta[] = [];
    const response = await model.complete(request({ onDelta: (delta) => deltas.push(delta) }));
    expect(response).toEqual({
      text: "I'll read both files.",
      toolCalls: [
        { id: 'call_Hk2mP9sQ4rT1vW8xY3zA6bC0', name: 'read_file', arguments: '{"path": "a.txt"}' },
        { id: 'call_Lm5nQ8rS2tU7vX1yZ4aB9cD3', name: 'read_file', arguments: '{"path": "b.txt"}' },
      ],
      usage: { inputTokens: 412, outputTokens: 58, totalTokens: 470, cacheReadTokens: 256, reasoningTokens: 0 },
      stopReason: 'tool-calls',
    });
    expect(deltas.map((delta) => delta.text).join('')).toBe("I'll read both files.");
    expect(deltas.length).toBe(5);
    const body = server!.requests[0]!.body as Record<string, unknown>;
    expect(body).toMatchObject({ model: 'gpt-4o-mini', stream: true, stream_options: { include_usage: true } });
    expect(server!.requests[0]!.headers.accept).toBe('text/event-stream');
  });

  it('reads multi-byte text split inside a character, and the usage chunk after the finish reason', async () => {
    const model = await serve(() => ({ chunks: splitStream(textStream, 5) }));
    const response = await model.complete(request());
    expect(response.text).toBe('a.txt says “héllo”; b.txt is empty.');
    expect(response.usage).toMatchObject({ inputTokens: 503, outputTokens: 17, cacheReadTokens: 384 });
    expect(response.stopReason).toBe('end');
  });

  it('keeps DeepSeek reasoning_content as reasoning, streaming it apart from the text', async () => {
    const model = await serve(() => ({ chunks: splitStream(deepseekStream, 11) }));
    const deltas: ModelDelta[] = [];
    const response = await model.complete(request({ onDelta: (delta) => deltas.push(delta) }));
    expect(response.reasoning).toEqual([
      {
        text: 'The user wants the contents of a.txt. I should call read_file.',
        providerData: { wire: 'openai-chat', field: 'reasoning_content' },
      },
    ]);
    expect(response.toolCalls).toEqual([{ id: 'call_00_x7Qd2mRk9LpT4sVb1NcZ8aYe', name: 'read_file', arguments: '{"path":"a.txt"}' }]);
    expect(response.usage).toEqual({ inputTokens: 331, outputTokens: 64, totalTokens: 395, cacheReadTokens: 320, reasoningTokens: 41 });
    expect(deltas.every((delta) => delta.text === undefined)).toBe(true);
    expect(deltas.map((delta) => delta.reasoning).join('')).toBe(response.reasoning?.[0]?.text);
  });

  it('assembles the same response wherever the chunk boundaries fall', async () => {
    const expected = await (await serve(() => ({ chunks: [toolCallsStream] }))).complete(request());
    const bytes = Buffer.byteLength(toolCallsStream);
    await fc.assert(
      fc.asyncProperty(fc.uniqueArray(fc.integer({ min: 1, max: bytes - 1 }), { maxLength: 40 }), async (offsets) => {
        const model = createOpenAIModel({
          model: 'm',
          baseUrl: 'http://model.invalid/v1',
          // The recorded bytes through a real Response body, cut at the generated offsets.
          fetch: () =>
            Promise.resolve(
              new Response(streamOf(splitStream(toolCallsStream, offsets)), { headers: { 'content-type': 'text/event-stream' } }),
            ),
        });
        expect(await model.complete(request())).toEqual(expected);
      }),
      { numRuns: 60 },
    );
  });

  it('retries a 429 after the Retry-After the provider asked for, then succeeds', async () => {
    const { delays, sleep } = recordingSleep();
    const model = await serve(
      (_, index) =>
        index === 0
          ? {
              status: 429,
              headers: { 'retry-after': '2' },
              json: { error: { message: 'Rate limit reached for gpt-4o-mini', type: 'requests' } },
            }
          : { chunks: [textStream] },
      { retry: { sleep, initialDelayMs: 10 } },
    );
    const response = await model.complete(request());
    expect(response.text).toBe('a.txt says “héllo”; b.txt is empty.');
    expect(server!.requests).toHaveLength(2);
    expect(delays).toHaveLength(1);
    expect(delays[0]).toBeGreaterThanOrEqual(2000);
  });

  it('gives up after maxAttempts of 500s with the provider message and the attempt count', async () => {
    const { delays, sleep } = recordingSleep();
    const model = await serve(
      () => ({ status: 500, json: { error: { message: 'The server had an error while processing your request.', type: 'server_error' } } }),
      {
        retry: { sleep, maxAttempts: 3, initialDelayMs: 100, maxDelayMs: 150, random: () => 0.5 },
      },
    );
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_HTTP_ERROR');
    expect((error as AgentError).status).toBe(500);
    expect((error as Error).message).toBe(
      `openai: ${server!.origin}/v1/chat/completions answered 500: The server had an error while processing your request. (server_error) (after 3 attempts)`,
    );
    expect(server!.requests).toHaveLength(3);
    // Exponential and capped, with jitter in the upper half: 100·(0.5+0.25), then min(150, 200)·0.75.
    expect(delays).toEqual([75, 113]);
  });

  it('does not retry a 400: the request itself is wrong', async () => {
    const model = await serve(() => ({
      status: 400,
      json: {
        error: {
          message: "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
          type: 'invalid_request_error',
        },
      },
    }));
    const error = await rejectionOf(model.complete(request()));
    expect((error as AgentError).status).toBe(400);
    expect(server!.requests).toHaveLength(1);
  });

  it('retries a connection reset before any output, and not one after output was streamed', async () => {
    const { sleep } = recordingSleep();
    const cut = toolCallsStream.indexOf('data: ', 10);
    const model = await serve(
      (_, index) => (index === 0 ? { chunks: [toolCallsStream.slice(0, 40)], after: 'reset' } : { chunks: [textStream] }),
      { retry: { sleep } },
    );
    expect((await model.complete(request())).text).toBe('a.txt says “héllo”; b.txt is empty.');
    await server!.close();

    const streamed = await serve(
      () => ({ chunks: [toolCallsStream.slice(0, toolCallsStream.indexOf('data: ', cut + 10))], after: 'reset' }),
      { retry: { sleep } },
    );
    const deltas: ModelDelta[] = [];
    const error = await rejectionOf(streamed.complete(request({ onDelta: (delta) => deltas.push(delta) })));
    expect(deltas).toEqual([{ text: "I'll" }]);
    expect(AgentError.is(error) && error.code).toBe('MODEL_UNREACHABLE');
    expect((error as Error).message).toContain('not retried: part of the answer had already streamed');
    expect(server!.requests).toHaveLength(1);
  });

  it('reports a stream that ends before [DONE] or a finish reason as broken off', async () => {
    const model = await serve(
      () => ({ chunks: [toolCallsStream.slice(0, toolCallsStream.indexOf('"finish_reason":"tool_calls"') - 300)] }),
      { retry: { maxAttempts: 1 } },
    );
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_UNREACHABLE');
    expect((error as Error).message).toContain('ended before the response was complete');
  });

  it('maps an error frame inside the stream to MODEL_STREAM_ERROR with its message', async () => {
    const model = await serve(
      () => ({
        chunks: [
          `${textStream.split('\n\n')[0]!}\n\ndata: {"error":{"message":"Upstream model crashed","type":"server_error","code":null}}\n\n`,
        ],
      }),
      { retry: { maxAttempts: 1 } },
    );
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_STREAM_ERROR');
    expect((error as Error).message).toBe('openai: the stream reported an error: Upstream model crashed (server_error)');
  });

  it('aborts mid-stream when the signal fires, without retrying', async () => {
    const controller = new AbortController();
    const model = await serve(() => ({ chunks: [toolCallsStream.slice(0, toolCallsStream.indexOf('" read"') + 200)], after: 'hang' }));
    const pending = rejectionOf(
      model.complete(
        request({
          signal: controller.signal,
          onDelta: () => {
            controller.abort();
          },
        }),
      ),
    );
    const error = await pending;
    expect((error as Error).name).toBe('AbortError');
    await server!.aborted;
    expect(server!.requests).toHaveLength(1);
  });

  it('fails an attempt that goes silent mid-stream with MODEL_TIMEOUT', async () => {
    const model = await serve(() => ({ chunks: [textStream.slice(0, 100)], after: 'hang' }), { timeoutMs: 50, retry: { maxAttempts: 1 } });
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_TIMEOUT');
    expect((error as Error).message).toContain('sent nothing for 0.05 s');
  });

  it('sends no stream fields when stream is false', async () => {
    const model = await serve(
      () => ({ json: { choices: [{ message: { role: 'assistant', content: 'plain' }, finish_reason: 'stop' }] } }),
      { stream: false },
    );
    expect((await model.complete(request())).text).toBe('plain');
    const body = server!.requests[0]!.body as Record<string, unknown>;
    expect(body.stream).toBeUndefined();
    expect(body.stream_options).toBeUndefined();
  });
});

function streamOf(pieces: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  let index = 0;
  return new ReadableStream({
    pull(controller) {
      const piece = pieces[index];
      index += 1;
      if (piece === undefined) controller.close();
      else controller.enqueue(piece);
    },
  });
}
