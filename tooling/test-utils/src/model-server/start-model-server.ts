/**
 * @module model-server/start-model-server
 * The one fake model provider of the tests, on 127.0.0.1: dsh's adapters, Claude Code, Codex and pi
 * all talk to it. Model requests go to a handler (a test answering by hand: chunks cut where it
 * likes, hangs, resets, refusals) or to per-API scripts written once for the three wires (Anthropic
 * Messages, OpenAI Responses, Chat Completions). The server itself answers the side endpoints real
 * tools call (`GET …/models`, `POST …/messages/count_tokens`), records every request, and, being
 * the tools' `HTTPS_PROXY` too, records and refuses any CONNECT or absolute-URL request (`proxied`).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { ModelHandler, ModelServerReply, ModelServerRequest, RequestApi } from './model-server-types.js';
import { scriptedHandler, type ModelScripts } from './model-scripts.js';
import type { ModelApi } from './scripted-reply.js';

/** The running server: its origin, what it received, and what clients tried to reach elsewhere. */
export interface ModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  /** Every request but the refused proxy ones, in arrival order. */
  readonly requests: ModelServerRequest[];
  /** `host:port` of every CONNECT, or the URL of every absolute-URL request, in arrival order. */
  readonly proxied: string[];
  /** Resolves once a client closed a connection the server was holding open (a hang) or gave up before the answer. */
  readonly aborted: Promise<void>;
  /** The bodies of one API's model requests (not side endpoints), in order. */
  modelRequests(api: ModelApi): Record<string, unknown>[];
  close(): Promise<void>;
}

function apiOf(method: string, path: string): RequestApi {
  if (method === 'GET' && path.endsWith('/models')) return 'models';
  if (method !== 'POST') return 'other';
  if (path.endsWith('/messages/count_tokens')) return 'count-tokens';
  if (path.endsWith('/messages')) return 'anthropic';
  if (path.endsWith('/responses')) return 'responses';
  if (path.endsWith('/chat/completions')) return 'chat';
  return 'other';
}

const MODEL_LIST = {
  object: 'list',
  data: [{ id: 'fake-model', object: 'model', type: 'model', display_name: 'Fake model', created: 0, created_at: '2026-01-01T00:00:00Z' }],
  has_more: false,
};

/**
 * Starts the server on an ephemeral loopback port. Given a handler, every POST but `count_tokens`
 * reaches it (other methods but `GET …/models`: 404); a handler that throws answers 500 with the
 * error's message, so a strict server fails the exchange the way a real provider would. Given
 * scripts (or nothing), each API answers from its script, `"ok"` text without one.
 */
export async function startModelServer(answer: ModelHandler | ModelScripts = {}): Promise<ModelServer> {
  const handler: ModelHandler = typeof answer === 'function' ? answer : scriptedHandler(answer);
  const requests: ModelServerRequest[] = [];
  const proxied: string[] = [];
  let handled = 0;
  let markAborted: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const sockets = new Set<Socket>();
  const hold = (res: ServerResponse) => {
    res.on('close', markAborted);
  };
  const write = async (res: ServerResponse, reply: ModelServerReply) => {
    if (reply === 'hang') {
      hold(res);
      return;
    }
    const status = reply.status ?? 200;
    if (reply.chunks !== undefined) {
      res.writeHead(status, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...reply.headers });
      res.flushHeaders();
      for (const chunk of reply.chunks) {
        if (chunk instanceof Promise) {
          await chunk.catch(() => undefined);
          if (res.destroyed) return;
          continue;
        }
        await new Promise<void>((resolve) =>
          res.write(chunk, () => {
            resolve();
          }),
        );
        // Give the socket a turn so consecutive writes are not coalesced into one read.
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (reply.after === 'hang') hold(res);
      else if (reply.after === 'reset') res.socket?.destroy();
      else res.end();
    } else if (reply.text !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.text);
    } else {
      res.writeHead(status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.json ?? {}));
    }
  };
  const respond = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    const path = req.url ?? '/';
    if (/^[a-z]+:\/\//i.test(path)) {
      proxied.push(path);
      res.writeHead(502).end();
      return;
    }
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    const method = req.method ?? '';
    const received: ModelServerRequest = { api: apiOf(method, path.split('?')[0] ?? path), method, path, headers: req.headers, body, raw };
    requests.push(received);
    if (received.api === 'models') return write(res, { json: MODEL_LIST });
    if (received.api === 'count-tokens') return write(res, { json: { input_tokens: Math.max(1, Math.ceil(raw.length / 4)) } });
    if (method !== 'POST') return write(res, { status: 404, json: { error: { message: `no route ${method} ${path}` } } });
    let reply: ModelServerReply;
    try {
      reply = await handler(received, handled++);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { status: 500, json: { error: { message, type: 'test_server_refused' } } };
    }
    return write(res, reply);
  };
  const server = createServer((req, res) => {
    // A client that gives up before the answer (even before its body was read) counts as an abort.
    res.on('close', () => {
      if (!res.writableEnded) markAborted();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void respond(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('connect', (req: IncomingMessage, socket: Socket) => {
    proxied.push(req.url ?? '');
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  };
  return {
    origin: `http://127.0.0.1:${String(port)}`,
    requests,
    proxied,
    aborted,
    modelRequests: (api) => requests.filter((request) => request.api === api).map((request) => request.body as Record<string, unknown>),
    close,
    [Symbol.asyncDispose]: close,
  };
}
