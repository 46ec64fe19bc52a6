/**
 * SPEC §22 — bounded resources, through the published packages: the SSE stream cap of a served host
 * (503 TOO_MANY_STREAMS with Retry-After while every other route works), a malformed Host header
 * (400 BAD_REQUEST), and file tool paths checked before anything is created (PATH_TOO_LONG).
 * The PostgreSQL lease's identity is s22-postgres-lease-identity.test.ts.
 */
import { connect } from 'node:net';
import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createScriptedModel, demoTools } from 'dsh-agent';
import { createHost, serveHost, type Host, type HostServer } from 'dsh-host';
import { createMemoryStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function served(maxStreams: number): Promise<{ host: Host; server: HostServer }> {
  const store = createMemoryStore();
  const host = createHost({ store });
  const server = await serveHost(host, { port: 0, maxStreams });
  cleanups.push(async () => {
    await server.close();
    await host.close();
    await store.close();
  });
  return { host, server };
}

/** The status line and head of a raw HTTP/1.1 request carrying exactly `hostHeader` (fetch would write its own). */
function rawRequest(port: number, hostHeader: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      answer += chunk;
    });
    socket.on('end', () => {
      resolve(answer);
    });
    socket.on('error', reject);
    socket.write(`GET /api/sessions HTTP/1.1\r\nHost: ${hostHeader}\r\nConnection: close\r\n\r\n`);
  });
}

describe('§22 SSE streams are bounded', () => {
  it(
    '§22 one stream over the cap is 503 TOO_MANY_STREAMS with Retry-After, and every other route keeps working',
    { timeout: 60_000 },
    async () => {
      const { host, server } = await served(2);
      const { sessionId } = await host.create({ title: 'watched' });
      const controller = new AbortController();
      cleanups.push(() => {
        controller.abort();
        return Promise.resolve();
      });
      const streams = [];
      for (let index = 0; index < 2; index++) {
        const response = await fetch(`${server.url}/api/sessions/${sessionId}/events`, { signal: controller.signal });
        expect(response.status).toBe(200);
        streams.push(response);
      }
      const refused = await fetch(`${server.url}/api/sessions/${sessionId}/events`);
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_STREAMS');

      const listed = await fetch(`${server.url}/api/sessions`);
      expect(listed.status).toBe(200);
      const created = await fetch(`${server.url}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{}',
      });
      expect(created.status).toBe(201);
      expect((await fetch(`${server.url}/api/sessions/${sessionId}`)).status).toBe(200);

      // A closed stream frees its slot.
      await streams[0]?.body?.cancel();
      let reopened: Response | undefined;
      while (reopened?.status !== 200) {
        await reopened?.body?.cancel();
        reopened = await fetch(`${server.url}/api/sessions/${sessionId}/events`, { signal: controller.signal });
      }
      expect(reopened.status).toBe(200);
    },
  );
});

describe('§22 the Host header is checked', () => {
  it(
    '§22 a Host that is not a host name, IP literal or host:port is 400 BAD_REQUEST; a valid one is served',
    { timeout: 60_000 },
    async () => {
      const { server } = await served(4);
      for (const bad of ['exa mple', 'a..b:1', '127.0.0.1:99999', '[::1', 'host:port']) {
        const answer = await rawRequest(server.port, bad);
        expect(answer.split('\r\n')[0], bad).toBe('HTTP/1.1 400 Bad Request');
        expect(answer, bad).toContain('"BAD_REQUEST"');
      }
      expect((await rawRequest(server.port, `127.0.0.1:${String(server.port)}`)).split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    },
  );
});

describe('§22 file tools check path length and depth first', () => {
  let work: TempDir;
  beforeEach(async () => {
    work = await makeTempDir('dsh-acc-paths-');
  });
  afterEach(async () => {
    await work.remove();
  });

  it('§22 a path too deep or with a name too long is refused PATH_TOO_LONG and creates nothing', { timeout: 60_000 }, async () => {
    const deep = Array.from({ length: 300 }, () => 'd').join('/');
    const longName = `${'n'.repeat(300)}.txt`;
    const model = createScriptedModel([
      {
        toolCalls: [
          { name: 'make_dir', arguments: { path: deep } },
          { name: 'write_file', arguments: { path: `${deep}/f.txt`, content: 'x' } },
          { name: 'write_file', arguments: { path: `sub/${longName}`, content: 'x' } },
        ],
      },
      { text: 'done' },
    ]);
    const store = createMemoryStore();
    const host = createHost({ store, model, tools: demoTools() });
    cleanups.push(async () => {
      await host.close();
      await store.close();
    });
    const result = await host.query({ prompt: 'make them', cwd: work.path });
    expect(result.isError).toBe(false);
    const { events } = await host.observe(result.sessionId);
    const results = events
      .filter((event) => event.type === 'tool/result')
      .map((event) => event.data as { message: { isError: boolean }; error?: { code: string } });
    expect(results).toHaveLength(3);
    for (const refused of results) expect([refused.message.isError, refused.error?.code]).toEqual([true, 'PATH_TOO_LONG']);
    expect(await readdir(work.path)).toEqual([]);
  });
});
