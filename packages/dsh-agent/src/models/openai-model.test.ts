import { afterEach, describe, expect, it } from 'vitest';
import { startModelServer, type ModelServer, type ModelServerReply } from '@dsh/test-utils';
import { AgentError, createOpenAIModel, type ModelMessage, type ModelRequest } from 'dsh-agent';
import { rejectionOf } from '../__fixtures__/agent-fixtures.js';

let server: ModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function serve(handler: (body: unknown, index: number) => ModelServerReply) {
  server = await startModelServer((request, index) => handler(request.body, index));
  return createOpenAIModel({ model: 'test-model', env: { OPENAI_BASE_URL: `${server.origin}/v1`, OPENAI_API_KEY: 'sk-test' } });
}

const completion = (message: object, usage?: object) => ({
  json: {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    choices: [{ index: 0, message, finish_reason: 'stop' }],
    ...(usage ? { usage } : {}),
  },
});

const history: ModelMessage[] = [
  { id: 'u1', role: 'user', content: [{ type: 'text', text: 'read a.txt' }] },
  {
    id: 'a1',
    role: 'assistant',
    content: [
      { type: 'text', text: 'Reading.' },
      { type: 'tool-call', id: 'call_1', name: 'read_file', arguments: '{"path":"a.txt"}' },
      { type: 'tool-call', id: 'call_2', name: 'read_file', arguments: '{"path":"b.txt"}' },
    ],
  },
  { id: 'r1', role: 'tool', callId: 'call_1', content: [{ type: 'text', text: 'ay' }], isError: false },
  { id: 'forked-tool-result-call_2-9', role: 'tool', callId: 'call_2', content: [{ type: 'text', text: 'not started' }], isError: true },
];

const request = (extra: Partial<ModelRequest> = {}): ModelRequest => ({
  system: 'be brief',
  messages: history,
  tools: [{ name: 'read_file', description: 'read', parameters: { type: 'object' } }],
  ...extra,
});

describe('OpenAI-compatible model over real HTTP (JSON answers)', () => {
  it('sends the Chat Completions wire format and reads text, tool calls and usage', async () => {
    const model = await serve(() =>
      completion(
        {
          role: 'assistant',
          content: 'On it.',
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'read_file', arguments: '{"path":"c.txt"}' } }],
        },
        { prompt_tokens: 12, completion_tokens: 5, total_tokens: 17 },
      ),
    );
    const response = await model.complete(request());
    expect(response).toEqual({
      text: 'On it.',
      toolCalls: [{ id: 'call_9', name: 'read_file', arguments: '{"path":"c.txt"}' }],
      usage: { inputTokens: 12, outputTokens: 5, totalTokens: 17 },
      stopReason: 'end',
    });
    const received = server!.requests[0]!;
    expect(received.headers.authorization).toBe('Bearer sk-test');
    expect(received.body).toEqual({
      model: 'test-model',
      messages: [
        { role: 'system', content: 'be brief' },
        { role: 'user', content: 'read a.txt' },
        {
          role: 'assistant',
          content: 'Reading.',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } },
            { id: 'call_2', type: 'function', function: { name: 'read_file', arguments: '{"path":"b.txt"}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'ay' },
        { role: 'tool', tool_call_id: 'call_2', content: 'Error: not started' },
      ],
      tools: [{ type: 'function', function: { name: 'read_file', description: 'read', parameters: { type: 'object' } } }],
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(model.name).toBe('openai:test-model');
  });

  it('omits tools when none are offered and describes a call the log has no result for', async () => {
    const model = await serve(() => completion({ role: 'assistant', content: 'ok' }));
    await model.complete({ messages: history.slice(0, 3), tools: [] });
    const body = server!.requests[0]!.body as { messages: unknown[]; tools?: unknown };
    expect(body.tools).toBeUndefined();
    expect(body.messages[1]).toEqual({
      role: 'assistant',
      content: 'Reading.\n[tool call read_file {"path":"b.txt"} (id call_2) has no recorded result]',
      tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.txt"}' } }],
    });
  });

  it('maps a non-2xx answer to MODEL_HTTP_ERROR with the status and the endpoint message', async () => {
    const model = await serve(() => ({
      status: 401,
      json: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error' } },
    }));
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_HTTP_ERROR');
    expect((error as AgentError).status).toBe(401);
    expect((error as Error).message).toContain('answered 401: Incorrect API key provided');
  });

  it('maps a body that is not a completion to MODEL_BAD_RESPONSE', async () => {
    const model = await serve((_, index) => (index === 0 ? { text: '<html>gateway</html>' } : { json: { choices: [] } }));
    const first = await rejectionOf(model.complete(request()));
    expect(AgentError.is(first) && first.code).toBe('MODEL_BAD_RESPONSE');
    const second = await rejectionOf(model.complete(request()));
    expect(AgentError.is(second) && second.code).toBe('MODEL_BAD_RESPONSE');
  });

  it('aborts the HTTP request when the signal fires', async () => {
    const model = await serve(() => 'hang');
    const controller = new AbortController();
    const pending = rejectionOf(model.complete(request({ signal: controller.signal })));
    while (server!.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort();
    const error = await pending;
    expect((error as Error).name).toBe('AbortError');
    await server!.aborted;
  });

  it('gives up on an endpoint that does not answer in time with MODEL_TIMEOUT', async () => {
    server = await startModelServer(() => 'hang');
    const model = createOpenAIModel({ model: 'm', baseUrl: `${server.origin}/v1`, timeoutMs: 100, retry: { maxAttempts: 1 } });
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_TIMEOUT');
    await server.aborted;
  });

  it('maps a refused connection to MODEL_UNREACHABLE', async () => {
    const closed = await startModelServer(() => ({ json: {} }));
    const baseUrl = `${closed.origin}/v1`;
    await closed.close();
    const model = createOpenAIModel({ model: 'm', baseUrl, retry: { maxAttempts: 1 } });
    const error = await rejectionOf(model.complete(request()));
    expect(AgentError.is(error) && error.code).toBe('MODEL_UNREACHABLE');
  });

  it('refuses to start without a key or a base URL', () => {
    expect(() => createOpenAIModel({ model: 'gpt', env: {} })).toThrow(expect.objectContaining({ code: 'MODEL_CONFIG' }));
  });
});
