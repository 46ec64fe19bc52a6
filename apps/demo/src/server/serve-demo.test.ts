import { request as httpRequest } from 'node:http';
import { mkdir, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { claudeCodeTranscript, makeTempDir, type TempDir } from '@dsh/test-utils';
import { createHost, createMemoryStore } from 'dsh-host';
import { serveDemo, type DemoHttpServer } from './serve-demo.js';

let dir: TempDir;
let server: DemoHttpServer;
const seen: { method: string; url: string; body: string; lastEventId: string | null }[] = [];

beforeAll(async () => {
  dir = await makeTempDir();
  const dist = join(dir.path, 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><html><head><title>page</title></head></html>');
  await writeFile(join(dist, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir.path, 'secret.txt'), 'outside dist');
  await mkdir(join(dist, '.vite'), { recursive: true });
  await writeFile(join(dist, '.vite', 'page-inputs.json'), '["../secret-source.ts"]');
  const host = {
    async fetch(request: Request) {
      seen.push({
        method: request.method,
        url: request.url,
        body: await request.text(),
        lastEventId: request.headers.get('last-event-id'),
      });
      if (new URL(request.url).pathname.endsWith('/events')) {
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            controller.enqueue(new TextEncoder().encode('id: 0\ndata: {"seq":0}\n\n'));
            controller.close();
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream' } });
      }
      return Response.json({ error: { code: 'SESSION_NOT_FOUND', message: 'nope' } }, { status: 404 });
    },
  };
  server = await serveDemo({ host, distDir: dist, hostname: '127.0.0.1', port: 0 });
});

afterAll(async () => {
  await server.close();
  await dir.remove();
});

test('listens on 127.0.0.1 and reports its URL', () => {
  expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
});

test('serves built files with their content type, and index.html for any other page path', async () => {
  const asset = await fetch(new URL('assets/app.js', server.url));
  expect(asset.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
  expect(await asset.text()).toBe('console.log(1)');
  const deep = await fetch(new URL('sessions/anything', server.url));
  expect(await deep.text()).toContain('<title>page</title>');
});

test('never serves a file outside the built page', async () => {
  const response = await fetch(new URL('/..%2fsecret.txt', server.url));
  expect(await response.text()).not.toContain('outside dist');
});

test("never serves the build's own records or any dot file, and a path that does not decode gets the page", async () => {
  for (const path of ['/.vite/page-inputs.json', '/%2evite/page-inputs.json', '/assets/../.vite/page-inputs.json']) {
    const response = await fetch(new URL(path, server.url));
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('<title>page</title>');
  }
  const malformed = await fetch(new URL('/%E0%A4%A', server.url));
  expect(malformed.status).toBe(200);
  expect(await malformed.text()).toContain('<title>page</title>');
});

test('forwards /api requests to the host with method, body and headers, and relays status and body', async () => {
  const response = await fetch(new URL('/api/sessions/x/messages', server.url), {
    method: 'POST',
    body: '{"text":"hi"}',
    headers: { 'content-type': 'application/json' },
  });
  expect(response.status).toBe(404);
  expect(await response.json()).toEqual({ error: { code: 'SESSION_NOT_FOUND', message: 'nope' } });
  expect(seen.at(-1)).toMatchObject({ method: 'POST', body: '{"text":"hi"}' });
  expect(seen.at(-1)?.url).toMatch(/\/api\/sessions\/x\/messages$/);
});

test('streams server-sent events and passes Last-Event-ID through', async () => {
  const response = await fetch(new URL('/api/sessions/x/events?from=0', server.url), { headers: { 'last-event-id': '4' } });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  expect(await response.text()).toBe('id: 0\ndata: {"seq":0}\n\n');
  expect(seen.at(-1)?.lastEventId).toBe('4');
});

/** A raw request, so `Host` can be what a DNS-rebinding page's browser sends. */
function raw(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; text: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url);
    const outgoing = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text, connection: response.headers.connection });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

test('refuses a DNS-rebinding Host for the page and the API, before the host sees anything', async () => {
  const before = seen.length;
  expect((await raw(server.url, 'GET', '/', { host: 'attacker.example' })).status).toBe(403);
  const api = await raw(server.url, 'GET', '/api/sessions', { host: `attacker.example:${server.port}` });
  expect(api.status).toBe(403);
  expect(JSON.parse(api.text)).toMatchObject({ error: { code: 'HOST_NOT_ALLOWED' } });
  // A refusal ends its connection (dsh-host's answerAndClose).
  expect(api.connection).toBe('close');
  expect(seen.length).toBe(before);
});

test('refuses a body declared over the limit with 413 and Connection: close before reading it, and closes', async () => {
  const before = seen.length;
  const answer = await new Promise<{ text: string; closed: boolean }>((resolve) => {
    const socket = connect(server.port, '127.0.0.1');
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', () => undefined);
    socket.once('close', () => {
      resolve({ text, closed: true });
    });
    socket.write(
      `POST /api/sessions HTTP/1.1\r\nHost: 127.0.0.1:${String(server.port)}\r\nContent-Type: application/json\r\nContent-Length: ${String(3 * 1024 * 1024)}\r\n\r\n`,
    );
  });
  const [head, body] = answer.text.split('\r\n\r\n');
  expect(head).toMatch(/^HTTP\/1\.1 413 /);
  expect(head).toMatch(/\r\nconnection: close/i);
  expect(JSON.parse(body ?? '')).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  expect(seen.length).toBe(before);
});

test('refuses cross-site and text/plain writes before the host sees them', async () => {
  const before = seen.length;
  const own = `127.0.0.1:${server.port}`;
  const csrf = await raw(
    server.url,
    'POST',
    '/api/sessions',
    { host: own, origin: 'https://evil.example', 'content-type': 'text/plain' },
    '{"title":"x"}',
  );
  expect(csrf.status).toBe(403);
  const plain = await raw(server.url, 'POST', '/api/sessions', { host: own, 'content-type': 'text/plain' }, '{"title":"x"}');
  expect([plain.status, plain.connection]).toEqual([415, 'close']);
  expect(seen.length).toBe(before);
});

test('with a token, the API requires it and the served page carries it', async () => {
  const dist = join(dir.path, 'dist');
  const guarded = await serveDemo({
    host: { fetch: () => Promise.resolve(Response.json({ sessions: [] })) },
    distDir: dist,
    hostname: '127.0.0.1',
    port: 0,
    token: 'tok"en<',
  });
  try {
    expect((await fetch(new URL('/api/sessions', guarded.url))).status).toBe(401);
    const page = await (await fetch(guarded.url)).text();
    expect(page).toContain('<meta name="dsh-token" content="tok&quot;en&lt;">');
    expect((await fetch(new URL('/api/sessions', guarded.url), { headers: { authorization: 'Bearer tok"en<' } })).status).toBe(200);
  } finally {
    await guarded.close();
  }
});

test('the served page carries the CLI data arguments (escaped), so the commands it shows reach these sessions', async () => {
  const withData = await serveDemo({
    host: { fetch: () => Promise.resolve(Response.json({})) },
    distDir: join(dir.path, 'dist'),
    hostname: '127.0.0.1',
    port: 0,
    cliData: `--data '/tmp/a "b"'`,
  });
  try {
    const page = await (await fetch(withData.url)).text();
    expect(page).toContain(`<meta name="dsh-cli-data" content="--data '/tmp/a &quot;b&quot;'">`);
    expect(await (await fetch(server.url)).text()).not.toContain('dsh-cli-data');
  } finally {
    await withData.close();
  }
});

test("POST /api/import is the host's route: a transcript larger than other bodies reaches the host, after the guard", async () => {
  const store = createMemoryStore();
  const host = createHost({ store });
  const importing = await serveDemo({ host, distDir: join(dir.path, 'dist'), hostname: '127.0.0.1', port: 0 });
  try {
    const url = new URL('/api/import', importing.url);
    // Over the 2 MiB the demo forwards for other routes: long agent sessions run to megabytes.
    const text = claudeCodeTranscript({ turns: 40 }).text;
    const padded = JSON.stringify({ text: text + ' '.repeat(Math.max(0, 2 * 1024 * 1024 + 1 - text.length)) });
    const ok = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: padded });
    expect(ok.status).toBe(201);
    expect(((await ok.json()) as { sessions: { id: string }[] }).sessions.map((s) => s.id)).toEqual([
      '5f0c3a52-7d4e-4b8a-9c61-2e8f4a1b3c7d',
    ]);
    const again = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text }) });
    expect([again.status, ((await again.json()) as { error: { code: string } }).error.code]).toEqual([409, 'SESSION_EXISTS']);
    const broken = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"text":' });
    expect([broken.status, ((await broken.json()) as { error: { code: string } }).error.code]).toEqual([400, 'BAD_REQUEST']);
    expect((await fetch(url)).status).toBe(404);
    const plain = await raw(
      importing.url,
      'POST',
      '/api/import',
      { host: `127.0.0.1:${importing.port}`, 'content-type': 'text/plain' },
      '{"text":"x"}',
    );
    expect(plain.status).toBe(415);
  } finally {
    await importing.close();
    await host.close();
    await store.close();
  }
});
