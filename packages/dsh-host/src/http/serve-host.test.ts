import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { createHost, HostError, serveHost } from 'dsh-host';
import { servedHost } from '../__fixtures__/served-host.js';
import { isLoopbackAddress } from './serve-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(options: Parameters<typeof serveHost>[1] = {}) {
  return servedHost(cleanups, options, 'over the wire');
}

describe('serveHost (a real listening server)', () => {
  it('binds 127.0.0.1 by default and serves the API, SSE included', async () => {
    const { host, server } = await start();
    expect(server.hostname).toBe('127.0.0.1');
    expect(server.url).toBe(`http://127.0.0.1:${server.port}`);
    const created = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'wire' }),
    });
    expect(created.status).toBe(201);
    const { sessionId } = (await created.json()) as { sessionId: string };
    await fetch(`${server.url}/api/sessions/${sessionId}/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hi' }),
    });
    await host.idle(sessionId);
    const { events } = await host.observe(sessionId);

    const controller = new AbortController();
    const stream = await fetch(`${server.url}/api/sessions/wire/events`, { signal: controller.signal, headers: { 'last-event-id': '0' } });
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    const reader = stream.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    while (!text.includes(`id: ${events.length - 1}\n`)) {
      const chunk = await reader.read();
      if (chunk.done) break;
      text += chunk.value;
    }
    controller.abort();
    const ids = [...text.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    expect(ids).toEqual(events.slice(1).map((event) => event.seq));
  });

  it('streams to at most half of maxConnections clients by default, so other requests always find a connection', async () => {
    const { host, server } = await start({ maxConnections: 4 });
    const { sessionId } = await host.create({ title: 'streams' });
    const controller = new AbortController();
    const open = [];
    for (let index = 0; index < 2; index += 1)
      open.push(await fetch(`${server.url}/api/sessions/${sessionId}/events`, { signal: controller.signal }));
    expect(open.map((response) => response.status)).toEqual([200, 200]);
    const refused = await fetch(`${server.url}/api/sessions/${sessionId}/events`);
    expect([refused.status, ((await refused.json()) as { error: { code: string } }).error.code]).toEqual([503, 'TOO_MANY_STREAMS']);
    expect(refused.headers.get('connection')).toBe('close');
    expect((await fetch(`${server.url}/api/sessions`)).status).toBe(200);
    controller.abort();
  });

  it('requires the bearer token when one is set', async () => {
    const { server } = await start({ token: 'a-long-enough-secret-token' });
    const anonymous = await fetch(`${server.url}/api/sessions`);
    expect(anonymous.status).toBe(401);
    expect(((await anonymous.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    expect((await fetch(`${server.url}/api/sessions`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(401);
    const authorized = await fetch(`${server.url}/api/sessions`, { headers: { authorization: 'Bearer a-long-enough-secret-token' } });
    expect(authorized.status).toBe(200);
  });

  it('refuses to bind a non-loopback address without a token', async () => {
    const store = createMemoryStore();
    const host = createHost({ store });
    cleanups.push(async () => {
      await host.close();
      await store.close();
    });
    for (const hostname of ['0.0.0.0', '::', '192.168.1.20']) {
      await expect(serveHost(host, { hostname })).rejects.toSatisfy((error) => HostError.is(error) && error.code === 'INVALID_OPTION');
    }
    expect(isLoopbackAddress('127.0.0.1')).toBe(true);
    expect(isLoopbackAddress('::1')).toBe(true);
    expect(isLoopbackAddress('0.0.0.0')).toBe(false);
  });
});
