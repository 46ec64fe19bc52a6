import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request a model server received: method, path, headers and the parsed JSON body. */
export type ModelServerRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
};

/**
 * What the handler answers. `chunks` are written one by one, each in its own write, so chunk
 * boundaries reach the client where the test put them (inside JSON, between `\n` and `\n`…); a
 * promise among them holds the stream there until it settles (a slow model the test releases);
 * then the response ends, or `after: 'hang'` keeps it open, or `after: 'reset'` destroys the socket.
 */
export type ModelServerReply =
  | {
      status?: number;
      headers?: Record<string, string>;
      json?: unknown;
      text?: string;
      chunks?: readonly (string | Uint8Array | Promise<unknown>)[];
      after?: 'end' | 'hang' | 'reset';
    }
  | 'hang';

/** A real HTTP server on 127.0.0.1 answering every POST through a handler (other methods: 404). */
export interface ModelServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly origin: string;
  readonly requests: ModelServerRequest[];
  /** Resolves once a client closed a connection the server was holding open (a hang). */
  readonly aborted: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the server on an ephemeral loopback port. The handler sees each request with its index
 * and may be async; a handler that throws answers 500 with the error's message, so a strict
 * server (one that checks the request) fails the exchange the way a real provider would.
 */
export async function startModelServer(
  handler: (request: ModelServerRequest, index: number) => ModelServerReply | Promise<ModelServerReply>,
): Promise<ModelServer> {
  const requests: ModelServerRequest[] = [];
  let markAborted: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const open = new Set<ServerResponse>();
  const hold = (res: ServerResponse) => {
    open.add(res);
    res.on('close', () => {
      open.delete(res);
      markAborted();
    });
  };
  const answer = async (req: IncomingMessage, res: ServerResponse, raw: string) => {
    let body: unknown = raw;
    try {
      body = JSON.parse(raw);
    } catch {
      // keep the raw text
    }
    const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
    if (received.method !== 'POST') {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
      return;
    }
    requests.push(received);
    let reply: ModelServerReply;
    try {
      reply = await handler(received, requests.length - 1);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      reply = { status: 500, json: { error: { message, type: 'test_server_refused' } } };
    }
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
      return;
    }
    if (reply.text !== undefined) {
      res.writeHead(status, { 'content-type': 'text/plain', ...reply.headers }).end(reply.text);
    } else {
      res.writeHead(status, { 'content-type': 'application/json', ...reply.headers }).end(JSON.stringify(reply.json ?? {}));
    }
  };
  const server = createServer((req, res) => {
    // A client that gives up before the answer (even before its body was read) counts as an abort.
    res.on('close', () => {
      if (!res.writableEnded) markAborted();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      void answer(req, res, Buffer.concat(chunks).toString('utf8'));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const close = async () => {
    for (const res of open) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) =>
      server.close(() => {
        resolve();
      }),
    );
  };
  return { origin: `http://127.0.0.1:${port}`, requests, aborted, close, [Symbol.asyncDispose]: close };
}

/**
 * Cuts a recorded stream's UTF-8 bytes at the given byte offsets, or every `size` bytes when given
 * a number, so pieces may end inside JSON, between `\n` and `\n`, or inside a multi-byte character.
 */
export function splitStream(text: string, cut: number | readonly number[]): Uint8Array[] {
  const bytes = Buffer.from(text, 'utf8');
  const offsets =
    typeof cut === 'number' ? Array.from({ length: Math.max(0, Math.ceil(bytes.length / cut) - 1) }, (_, i) => (i + 1) * cut) : [...cut];
  const pieces: Uint8Array[] = [];
  let from = 0;
  for (const offset of [...offsets.filter((o) => o > 0 && o < bytes.length).sort((a, b) => a - b), bytes.length]) {
    if (offset > from) pieces.push(bytes.subarray(from, offset));
    from = offset;
  }
  return pieces;
}
