/**
 * @module models/__fixtures__/silent-server
 * Model servers that never finish an answer, on a real TCP socket on 127.0.0.1: `no-headers` accepts
 * and never writes, `headers-then-silence` sends an event-stream's headers and then nothing, `drip`
 * sends the headers and then an SSE comment every few milliseconds forever (so no idle timer fires).
 */
import { createServer, type Socket } from 'node:net';

/** How the server misbehaves. */
export type SilentMode = 'no-headers' | 'headers-then-silence' | 'drip';

/** A running server: its base URL, how many requests it received (one per attempt), and `close()`. */
export type SilentServer = { baseUrl: string; requests: () => number; close: () => Promise<void> };

const HEADERS = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n';
const FRAME = ': ping\n\n';
const CHUNK = `${Buffer.byteLength(FRAME).toString(16)}\r\n${FRAME}\r\n`;

/**
 * Starts one server in `mode`. Requests are counted by their first bytes, not by connection: the
 * client's pool may open a spare connection it never sends on.
 */
export async function startSilentServer(mode: SilentMode): Promise<SilentServer> {
  const sockets = new Set<Socket>();
  let requests = 0;
  const answer = (socket: Socket) => {
    if (mode === 'no-headers') return;
    socket.write(HEADERS);
    if (mode !== 'drip') return;
    const timer = setInterval(() => socket.write(CHUNK), 5);
    socket.on('close', () => {
      clearInterval(timer);
    });
  };
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
    // The request is read and dropped, so the client's write never waits on a full buffer.
    let counted = false;
    socket.on('data', () => {
      if (counted) return;
      counted = true;
      requests += 1;
      answer(socket);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    baseUrl: `http://127.0.0.1:${String(address.port)}/v1`,
    requests: () => requests,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) =>
        server.close(() => {
          resolve();
        }),
      );
    },
  };
}
