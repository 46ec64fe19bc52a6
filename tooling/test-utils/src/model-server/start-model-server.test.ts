import { request as httpRequest } from 'node:http';
import { describe, expect, it } from 'vitest';
import { scriptReplies } from './scripted-reply.js';
import { startModelServer } from './start-model-server.js';

const post = (origin: string, path: string, body: object) =>
  fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** The `data:` payloads of an SSE body, `[DONE]` left out. */
const dataOf = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.startsWith('data: ') && line !== 'data: [DONE]')
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);

describe('the fake model server', () => {
  it('answers each API from its own script, counting requests per API', async () => {
    await using server = await startModelServer({
      anthropic: (_body, index) => ({ text: `anthropic ${String(index)}` }),
      chat: (_body, index) => ({ text: `chat ${String(index)}` }),
    });
    const first = (await (await post(server.origin, '/v1/messages', { model: 'claude-x', messages: [] })).json()) as Record<
      string,
      unknown
    >;
    expect(first).toMatchObject({ model: 'claude-x', content: [{ type: 'text', text: 'anthropic 0' }], stop_reason: 'end_turn' });
    const chat = dataOf(await (await post(server.origin, '/v1/chat/completions', { stream: true })).text());
    expect(chat.flatMap((chunk) => (chunk.choices as { delta: { content?: string } }[]).map((choice) => choice.delta.content))).toContain(
      'chat 0',
    );
    const second = (await (await post(server.origin, '/v1/messages', {})).json()) as { content: { text: string }[] };
    expect(second.content[0]?.text).toBe('anthropic 1');
    // An API without a script answers "ok".
    const responses = dataOf(await (await post(server.origin, '/v1/responses', {})).text());
    expect(responses.at(-1)).toMatchObject({ type: 'response.completed', response: { output: [{ content: [{ text: 'ok' }] }] } });
    expect(server.requests.map((request) => request.api)).toEqual(['anthropic', 'chat', 'anthropic', 'responses']);
    expect(server.modelRequests('anthropic')).toEqual([{ model: 'claude-x', messages: [] }, {}]);
  });

  it('streams reasoning, text and tool calls on the Anthropic wire as a stream-reading client assembles them', async () => {
    const replies = scriptReplies([
      { reasoning: 'Think.', signature: 's1', text: 'Calling.', toolCalls: [{ id: 't1', name: 'ls', input: { p: '.' } }] },
    ]);
    await using server = await startModelServer({ anthropic: replies });
    const events = dataOf(await (await post(server.origin, '/v1/messages', { stream: true, tools: [{ name: 'ls' }] })).text());
    const block = (deltas: number) => ['content_block_start', ...Array<string>(deltas).fill('content_block_delta'), 'content_block_stop'];
    expect(events.map((event) => event.type)).toEqual([
      'message_start',
      ...block(2),
      ...block(1),
      ...block(1),
      'message_delta',
      'message_stop',
    ]);
    const deltas = events.filter((event) => event.type === 'content_block_delta').map((event) => event.delta);
    expect(deltas).toEqual([
      { type: 'thinking_delta', thinking: 'Think.' },
      { type: 'signature_delta', signature: 's1' },
      { type: 'text_delta', text: 'Calling.' },
      { type: 'input_json_delta', partial_json: '{"p":"."}' },
    ]);
    expect(events.at(-2)).toMatchObject({ delta: { stop_reason: 'tool_use' } });
    // A side request (no tools) gets a title and does not eat the scripted reply.
    const side = (await (await post(server.origin, '/v1/messages', {})).json()) as { content: { text: string }[] };
    expect(side.content).toEqual([{ type: 'text', text: 'Session title' }]);
  });

  it('serves the side endpoints itself and hands only model requests to a handler', async () => {
    const seen: number[] = [];
    await using server = await startModelServer((_request, index) => {
      seen.push(index);
      return { json: { index } };
    });
    const models = (await (await fetch(`${server.origin}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((model) => model.id)).toEqual(['fake-model']);
    const counted = (await (await post(server.origin, '/v1/messages/count_tokens', { messages: ['12345678'] })).json()) as {
      input_tokens: number;
    };
    expect(counted.input_tokens).toBeGreaterThan(0);
    expect(await (await post(server.origin, '/anything', {})).json()).toEqual({ index: 0 });
    expect((await fetch(`${server.origin}/v1/other`, { method: 'DELETE' })).status).toBe(404);
    expect(seen).toEqual([0]);
    expect(server.requests.map((request) => [request.api, request.method])).toEqual([
      ['models', 'GET'],
      ['count-tokens', 'POST'],
      ['other', 'POST'],
      ['other', 'DELETE'],
    ]);
  });

  it('answers 500 with the message of a handler that throws', async () => {
    await using server = await startModelServer(() => {
      throw new Error('tool result without its call');
    });
    const response = await post(server.origin, '/v1/chat/completions', {});
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual({ error: { message: 'tool result without its call', type: 'test_server_refused' } });
  });

  it('as a proxy, records and refuses CONNECT and absolute-URL requests', async () => {
    await using server = await startModelServer();
    const { port } = new URL(server.origin);
    const connectStatus = await new Promise<number>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port, method: 'CONNECT', path: 'api.example.com:443' });
      request.on('connect', (response, socket) => {
        socket.destroy();
        resolve(response.statusCode ?? 0);
      });
      request.on('error', reject);
      request.end();
    });
    expect(connectStatus).toBe(403);
    const absoluteStatus = await new Promise<number>((resolve, reject) => {
      const request = httpRequest(
        { host: '127.0.0.1', port, method: 'GET', path: 'http://telemetry.example.com/v1/events' },
        (response) => {
          response.resume();
          resolve(response.statusCode ?? 0);
        },
      );
      request.on('error', reject);
      request.end();
    });
    expect(absoluteStatus).toBe(502);
    expect(server.proxied).toEqual(['api.example.com:443', 'http://telemetry.example.com/v1/events']);
    expect(server.requests).toEqual([]);
  });

  it('resolves aborted once a client gives up on a held answer', async () => {
    await using server = await startModelServer(() => 'hang');
    const controller = new AbortController();
    const pending = fetch(`${server.origin}/v1/chat/completions`, { method: 'POST', body: '{}', signal: controller.signal });
    await expect.poll(() => server.requests.length).toBe(1);
    controller.abort();
    await expect(pending).rejects.toThrow();
    await server.aborted;
  });
});
