import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake endpoint received: method, path, headers and the parsed JSON body. */
export type ReceivedChatRequest = {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: unknown;
};

/** What the handler answers: a status and a JSON body (or raw text), or `'hang'` to never answer. */
export type ChatReply = { status?: number; json?: unknown; text?: string } | 'hang';

/** A real HTTP server on 127.0.0.1 speaking the Chat Completions wire format through a handler. */
export interface ChatCompletionsServer extends AsyncDisposable {
  /** `http://127.0.0.1:<port>/v1`, the value for `OPENAI_BASE_URL`. */
  readonly baseUrl: string;
  readonly requests: ReceivedChatRequest[];
  /** Resolves when a hanging request's connection was closed by the client. */
  readonly aborted: Promise<void>;
  close(): Promise<void>;
}

/**
 * Starts the server on an ephemeral loopback port; every POST to `/v1/chat/completions` is
 * recorded and answered by `handler` (other paths get 404). Close it (or `await using`) in tests.
 */
export async function startChatCompletionsServer(
  handler: (request: ReceivedChatRequest, index: number) => ChatReply,
): Promise<ChatCompletionsServer> {
  const requests: ReceivedChatRequest[] = [];
  let markAborted: () => void = () => undefined;
  const aborted = new Promise<void>((resolve) => {
    markAborted = resolve;
  });
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    // A client that gives up before the answer (even before its body was read) counts as an abort.
    res.on('close', () => {
      if (!res.writableEnded) markAborted();
    });
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: unknown = raw;
      try {
        body = JSON.parse(raw);
      } catch {
        // keep the raw text
      }
      const received = { method: req.method ?? '', path: req.url ?? '', headers: req.headers, body };
      if (received.method !== 'POST' || received.path !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}');
        return;
      }
      requests.push(received);
      const reply = handler(received, requests.length - 1);
      if (reply === 'hang') {
        open.add(res);
        res.on('close', () => {
          open.delete(res);
          markAborted();
        });
        return;
      }
      const status = reply.status ?? 200;
      if (reply.text !== undefined) {
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reply.text);
      } else {
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(reply.json ?? {}));
      }
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
  return { baseUrl: `http://127.0.0.1:${port}/v1`, requests, aborted, close, [Symbol.asyncDispose]: close };
}
