import { readFileSync } from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { HostError } from 'dsh-host';
import { createBoundedHttpServer, resolveConnectionLimits, type ConnectionLimits } from './bounded-http-server.js';
import { defaultMaxConnections } from './default-max-connections.js';
import { listenHttpServer } from './listen-http-server.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

const answerOk: Handler = (request, response) => {
  // Reads the whole body, then answers.
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
  });
};

async function start(
  limits: ConnectionLimits,
  handler: Handler = answerOk,
  bodyRateWindowMs?: number,
): Promise<{ port: number; server: Server }> {
  const server = createBoundedHttpServer({
    limits,
    bodyLimitOf: () => 1024 * 1024,
    handler,
    ...(bodyRateWindowMs === undefined ? {} : { bodyRateWindowMs }),
  });
  const listening = await listenHttpServer(server, '127.0.0.1', 0);
  cleanups.push(listening.close);
  return { port: listening.port, server };
}

type Client = { socket: Socket; received: () => string; closed: Promise<void> };

/** A raw connection recording what it receives; `closed` resolves when the server ends it. */
function client(port: number): Promise<Client> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    cleanups.push(() => {
      socket.destroy();
    });
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    const closed = new Promise<void>((done) =>
      socket.once('close', () => {
        done();
      }),
    );
    socket.once('connect', () => {
      resolve({ socket, received: () => text, closed });
    });
    socket.once('close', () => {
      resolve({ socket, received: () => text, closed });
    });
  });
}

const get = (port: number): string => `GET / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\n\r\n`;

/** Sends one GET on a fresh connection and reads the answer until the server closes it. */
async function fetchOnce(port: number): Promise<string> {
  const fresh = await client(port);
  fresh.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nConnection: close\r\n\r\n`);
  await fresh.closed;
  return fresh.received();
}

describe('createBoundedHttpServer', () => {
  it('keeps at most maxConnections open: a new one closes the connection idle longest, and a fresh client is answered', async () => {
    const { port } = await start({ maxConnections: 4 });
    const idle: Client[] = [];
    for (let index = 0; index < 4; index += 1) idle.push(await client(port));
    // A keep-alive connection that was used is idle too, and now the most recent.
    idle[3]!.socket.write(get(port));
    const answer = await fetchOnce(port);
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/);
    await idle[0]!.closed;
    expect(idle[0]!.socket.destroyed).toBe(true);
    while (idle[3]!.received() === '') await new Promise((resolve) => setTimeout(resolve, 10));
    expect(idle[3]!.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('closes a new connection at once when every open one is serving a request', async () => {
    const held: ServerResponse[] = [];
    const { port } = await start({ maxConnections: 2 }, (request, response) => {
      if (held.length < 2) held.push(response);
      else answerOk(request, response);
    });
    const busy = [await client(port), await client(port)];
    for (const each of busy) each.socket.write(get(port));
    while (held.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const refused = await client(port);
    await refused.closed;
    expect(refused.received()).toBe('');
    for (const response of held) response.end('done');
    // Once a request is answered its connection is idle again, and a fresh client gets in.
    expect(await fetchOnce(port)).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('closes a keep-alive connection idle for idleTimeoutMs', async () => {
    const { port } = await start({ idleTimeoutMs: 100 });
    const idle = await client(port);
    idle.socket.write(get(port));
    await idle.closed;
    expect(idle.received()).toMatch(/^HTTP\/1\.1 200 OK[\s\S]*Keep-Alive: timeout=0/);
  });

  it('answers headers that do not arrive within headersTimeoutMs with 408 and closes', async () => {
    const { port } = await start({ headersTimeoutMs: 300 });
    const slow = await client(port);
    slow.socket.write(`GET / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\n`);
    await slow.closed;
    expect(slow.received()).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\nConnection: close/);
    // So does a connection that never sends a byte.
    const silent = await client(port);
    await silent.closed;
    expect(silent.received()).toMatch(/^HTTP\/1\.1 408/);
  });

  it('cuts a body that trickles below minBodyBytesPerSecond with 408 REQUEST_TIMEOUT and Connection: close', async () => {
    const { port } = await start({ minBodyBytesPerSecond: 1000 }, answerOk, 300);
    const slow = await client(port);
    slow.socket.write(
      `POST / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{`,
    );
    const trickle = setInterval(() => {
      if (!slow.socket.destroyed) slow.socket.write(' ');
    }, 50);
    cleanups.push(() => {
      clearInterval(trickle);
    });
    await slow.closed;
    const [head, body] = slow.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 408 Request Timeout/);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(body ?? '')).toMatchObject({ error: { code: 'REQUEST_TIMEOUT' } });
    // A body that keeps up is read to its end.
    const fast = await client(port);
    fast.socket.write(`POST / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`);
    await fast.closed;
    expect(fast.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('refuses a body that would pass maxRequestBytesTotal with 503 SERVER_BUSY, Retry-After and Connection: close, before reading it', async () => {
    const waiting: (() => void)[] = [];
    const { port } = await start({ maxRequestBytesTotal: 1000 }, (request, response) => {
      waiting.push(() => {
        answerOk(request, response);
      });
    });
    const post = (length: number): string =>
      `POST / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Type: application/json\r\nContent-Length: ${String(length)}\r\nConnection: close\r\n\r\n`;
    const first = await client(port);
    first.socket.write(post(600) + ' '.repeat(600));
    while (waiting.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await client(port);
    second.socket.write(post(600));
    await second.closed;
    const [head, body] = second.received().split('\r\n\r\n');
    expect(head).toMatch(/^HTTP\/1\.1 503 Service Unavailable/);
    expect(head).toMatch(/\r\nretry-after: \d+/i);
    expect(head).toMatch(/\r\nconnection: close/i);
    expect(JSON.parse(body ?? '')).toMatchObject({ error: { code: 'SERVER_BUSY' } });
    expect(waiting).toHaveLength(1);
    // Bodies within the bound together are read; once the first is answered its bytes are free again.
    const small = await client(port);
    small.socket.write(post(300) + ' '.repeat(300));
    while (waiting.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    for (const proceed of waiting.splice(0)) proceed();
    await first.closed;
    await small.closed;
    const third = await client(port);
    third.socket.write(post(600) + ' '.repeat(600));
    while (waiting.length < 1) await new Promise((resolve) => setTimeout(resolve, 10));
    waiting.shift()!();
    await third.closed;
    expect(third.received()).toMatch(/^HTTP\/1\.1 200 OK/);
  });

  it('reads at most a quarter of maxConnections bodies at once: one more is 503 SERVER_BUSY', async () => {
    const waiting: (() => void)[] = [];
    const { port } = await start({ maxConnections: 8 }, (request, response) => {
      if (request.method === 'GET') answerOk(request, response);
      else
        waiting.push(() => {
          answerOk(request, response);
        });
    });
    const post = `POST / HTTP/1.1\r\nHost: 127.0.0.1:${String(port)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}`;
    const reading = [await client(port), await client(port)];
    for (const each of reading) each.socket.write(post);
    while (waiting.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    const third = await client(port);
    third.socket.write(post);
    await third.closed;
    expect(third.received()).toMatch(/^HTTP\/1\.1 503 [\s\S]*"SERVER_BUSY"/);
    expect(third.received()).toMatch(/\r\nconnection: close/i);
    // A request without a body is not counted.
    expect(await fetchOnce(port)).toMatch(/^HTTP\/1\.1 200 OK/);
    for (const proceed of waiting.splice(0)) proceed();
  });

  it('closes a connection whose client stops reading a response, after inactivityTimeoutMs', async () => {
    const { port, server } = await start({ inactivityTimeoutMs: 300 }, (_request, response) => {
      // Far more than the socket buffers take: the rest waits in the response for a reader.
      response.writeHead(200, { 'content-type': 'text/plain' }).end(Buffer.alloc(64 * 1024 * 1024, 'x'));
    });
    // The client reads nothing, so only the server's side sees its socket close.
    const serverSide = new Promise<Socket>((resolve) => server.once('connection', resolve));
    const stalled = await client(port);
    stalled.socket.pause();
    stalled.socket.write(get(port));
    const socket = await serverSide;
    await new Promise((resolve) => socket.once('close', resolve));
    // Reading again, the client finds the answer cut short.
    stalled.socket.resume();
    await stalled.closed;
    expect(stalled.socket.bytesRead).toBeLessThan(64 * 1024 * 1024);
  });

  it('checks its limits (INVALID_OPTION) and defaults maxConnections to half the descriptor limit', () => {
    for (const limits of [
      { maxConnections: 0 },
      { idleTimeoutMs: -1 },
      { maxRequestBytesTotal: 1.5 },
      { minBodyBytesPerSecond: -1 },
      { inactivityTimeoutMs: -1 },
    ]) {
      expect(() => resolveConnectionLimits(limits)).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }) as HostError);
    }
    expect(resolveConnectionLimits({ minBodyBytesPerSecond: 0 }).minBodyBytesPerSecond).toBe(0);
    // A headers bound past Node's own request deadline is taken, not a RangeError.
    expect(() => createBoundedHttpServer({ limits: { headersTimeoutMs: 600_000 }, bodyLimitOf: () => 0, handler: answerOk })).not.toThrow();
    const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
    if (soft !== undefined) {
      expect(defaultMaxConnections()).toBe(Math.max(16, Math.min(4096, Math.floor(Number(soft) / 2))));
      expect(defaultMaxConnections()).toBeLessThan(Number(soft));
    }
    expect(resolveConnectionLimits().maxConnections).toBe(defaultMaxConnections());
  });
});
