/**
 * SPEC §27, the bullet on `dsh serve` and local clients, through the published packages: at most N
 * connections (a fresh client is still answered and a live session still runs a turn while far more
 * idle connections are opened), the bodies read at once bounded (503 SERVER_BUSY with Retry-After),
 * and every refusal answered with `Connection: close` and closed.
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { createHost, serveHost, type Host, type HostServer, type ServeOptions } from 'dsh-host';
import { createMemoryStore } from 'dsh-session';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(options: ServeOptions): Promise<{ host: Host; server: HostServer }> {
  const store = createMemoryStore();
  const host = createHost({ store, model: createScriptedModel(Array.from({ length: 20 }, () => ({ text: 'ok' }))) });
  const server = await serveHost(host, { port: 0, ...options });
  cleanups.push(async () => {
    await server.close();
    await host.close();
    await store.close();
  });
  return { host, server };
}

type Raw = { socket: Socket; text: () => string; closed: Promise<void> };

/** A raw connection that sends `request` (or nothing) and records what comes back until the server closes it. */
function raw(port: number, request?: string): Promise<Raw> {
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
    const opened = { socket, text: () => text, closed };
    socket.once('connect', () => {
      if (request !== undefined) socket.write(request);
      resolve(opened);
    });
    socket.once('close', () => {
      resolve(opened);
    });
  });
}

describe('§27 dsh serve survives any number of local clients', () => {
  it(
    '§27 a fresh client is answered and a live session runs a turn while far more idle connections than N are open',
    { timeout: 120_000 },
    async () => {
      const { host, server } = await served({ maxConnections: 8 });
      const { sessionId } = await host.create({ title: 'live' });
      const idle: Raw[] = [];
      for (let index = 0; index < 64; index += 1) idle.push(await raw(server.port));
      // The server holds at most 8: the ones idle longest were closed to make room.
      await Promise.all(idle.slice(0, 64 - 8).map((connection) => connection.closed));
      const listed = await fetch(`${server.url}/api/sessions`);
      expect(listed.status).toBe(200);
      const sent = await fetch(`${server.url}/api/sessions/${sessionId}/messages`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'still there?' }),
      });
      expect(sent.status).toBe(202);
      await host.idle(sessionId);
      const { events } = await host.observe(sessionId);
      expect(events.map((event) => event.type)).toContain('turn/end');
    },
  );

  it('§27 every refusal carries Connection: close and the server closes the connection', { timeout: 60_000 }, async () => {
    const { host, server } = await served({ maxStreams: 1, maxRequestBytesTotal: 1024, maxBodyBytes: 4096 });
    const { sessionId } = await host.create({ title: 'refusals' });
    const own = `Host: 127.0.0.1:${String(server.port)}\r\n`;
    const stream = await raw(server.port, `GET /api/sessions/${sessionId}/events HTTP/1.1\r\n${own}\r\n`);
    while (!stream.text().includes('\r\n\r\n')) await new Promise((resolve) => setTimeout(resolve, 10));
    // A body being read holds the request bytes: the next body over the bound is SERVER_BUSY.
    const reading = await raw(
      server.port,
      `POST /api/sessions HTTP/1.1\r\n${own}Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`,
    );
    const refusals: [string, string, number, string][] = [
      [
        '413',
        `POST /api/sessions HTTP/1.1\r\n${own}Content-Type: application/json\r\nContent-Length: 8192\r\n\r\n`,
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      ['400', 'GET /api/sessions HTTP/1.1\r\nHost: a b\r\n\r\n', 400, 'BAD_REQUEST'],
      ['403', 'GET /api/sessions HTTP/1.1\r\nHost: attacker.example\r\n\r\n', 403, 'HOST_NOT_ALLOWED'],
      [
        '415',
        `POST /api/sessions HTTP/1.1\r\n${own}Content-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}`,
        415,
        'UNSUPPORTED_MEDIA_TYPE',
      ],
      ['503 stream', `GET /api/sessions/${sessionId}/events HTTP/1.1\r\n${own}\r\n`, 503, 'TOO_MANY_STREAMS'],
      [
        '503 bodies',
        `POST /api/sessions HTTP/1.1\r\n${own}Content-Type: application/json\r\nContent-Length: 100\r\n\r\n`,
        503,
        'SERVER_BUSY',
      ],
    ];
    for (const [name, request, status, code] of refusals) {
      const answer = await raw(server.port, request);
      await answer.closed;
      const [head = '', body = ''] = answer.text().split('\r\n\r\n');
      expect(head.split('\r\n')[0], name).toMatch(new RegExp(`^HTTP/1\\.1 ${String(status)} `));
      expect(head, name).toMatch(/\r\nconnection: close/i);
      if (status === 503) expect(head, name).toMatch(/\r\nretry-after: \d+/i);
      expect((JSON.parse(body) as { error: { code: string } }).error.code, name).toBe(code);
    }
    reading.socket.destroy();
  });
});
