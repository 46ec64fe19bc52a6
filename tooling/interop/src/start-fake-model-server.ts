/**
 * A fake model provider on 127.0.0.1 for driving the real agent tools offline: Anthropic Messages
 * (`/v1/messages`, streaming or not, plus `count_tokens`), OpenAI Responses (`/v1/responses`) and
 * Chat Completions (`/v1/chat/completions`), `GET …/models`; every request is recorded. The same
 * port is the tools' `HTTPS_PROXY`: any CONNECT (a connection the tool tried to make elsewhere) and
 * any absolute-URL proxy request is recorded in `proxied` and refused.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { anthropicMessage, anthropicStream } from './anthropic-sse.js';
import { chatStream, responsesStream } from './openai-sse.js';
import type { RecordedRequest, ReplyScript } from './scripted-reply.js';

/** The scripts per API; an API without one answers `"ok"` text. */
export type FakeModelServerOptions = { anthropic?: ReplyScript; responses?: ReplyScript; chat?: ReplyScript };

/** The running server: its origin, what it received, and what the tools tried to reach elsewhere. */
export interface FakeModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, no trailing slash. */
  readonly origin: string;
  readonly requests: RecordedRequest[];
  /** `host:port` of every CONNECT, or the URL of every absolute-URL request, in arrival order. */
  readonly proxied: string[];
  /** The model requests (not side endpoints) of one API, in order. */
  modelRequests(api: 'anthropic' | 'responses' | 'chat'): Record<string, unknown>[];
  close(): Promise<void>;
}

const okScript: ReplyScript = () => ({ text: 'ok' });

/** Starts the server on an ephemeral loopback port. */
export async function startFakeModelServer(options: FakeModelServerOptions = {}): Promise<FakeModelServer> {
  const requests: RecordedRequest[] = [];
  const proxied: string[] = [];
  const counts = { anthropic: 0, responses: 0, chat: 0 };
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const url = req.url ?? '/';
    if (/^[a-z]+:\/\//i.test(url)) {
      proxied.push(url);
      res.writeHead(502).end();
      return;
    }
    const path = url.split('?')[0] ?? url;
    let body: unknown = undefined;
    try {
      body = raw === '' ? undefined : JSON.parse(raw);
    } catch {
      body = undefined;
    }
    const record = (api: RecordedRequest['api']) =>
      requests.push({ api, method: req.method ?? 'GET', path: url, headers: req.headers, body, raw });
    const object = (body ?? {}) as Record<string, unknown>;
    const model = typeof object.model === 'string' ? object.model : 'fake-model';
    const id = `fake_${String(requests.length)}`;
    const sse = (text: string) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      res.end(text);
    };
    const json = (status: number, value: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(value));
    };
    if (req.method === 'POST' && path.endsWith('/messages/count_tokens')) {
      record('count-tokens');
      json(200, { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) });
    } else if (req.method === 'POST' && path.endsWith('/messages')) {
      record('anthropic');
      const reply = (options.anthropic ?? okScript)(object, counts.anthropic++);
      if (object.stream === true) sse(anthropicStream(reply, model, id));
      else json(200, anthropicMessage(reply, model, id));
    } else if (req.method === 'POST' && path.endsWith('/responses')) {
      record('responses');
      sse(responsesStream((options.responses ?? okScript)(object, counts.responses++), model, id));
    } else if (req.method === 'POST' && path.endsWith('/chat/completions')) {
      record('chat');
      sse(chatStream((options.chat ?? okScript)(object, counts.chat++), model, id));
    } else if (req.method === 'GET' && path.endsWith('/models')) {
      record('models');
      json(200, {
        object: 'list',
        data: [
          { id: 'fake-model', object: 'model', type: 'model', display_name: 'Fake model', created: 0, created_at: '2026-01-01T00:00:00Z' },
        ],
        has_more: false,
      });
    } else {
      record('other');
      json(404, { type: 'error', error: { type: 'not_found_error', message: `fake model server: no route ${req.method ?? ''} ${path}` } });
    }
  };

  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      handle(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    proxied.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = () =>
    new Promise<void>((resolve) => {
      for (const socket of sockets) socket.destroy();
      server.close(() => {
        resolve();
      });
    });
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    requests,
    proxied,
    modelRequests: (api) => requests.filter((request) => request.api === api).map((request) => request.body as Record<string, unknown>),
    close,
    [Symbol.asyncDispose]: close,
  };
}
