import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { serveDemo, type DemoHttpServer } from './serve-demo.js';

let dir: TempDir;
let server: DemoHttpServer;
const seen: { method: string; url: string; body: string; lastEventId: string | null }[] = [];

beforeAll(async () => {
  dir = await makeTempDir();
  const dist = join(dir.path, 'dist');
  await mkdir(join(dist, 'assets'), { recursive: true });
  await writeFile(join(dist, 'index.html'), '<!doctype html><title>page</title>');
  await writeFile(join(dist, 'assets', 'app.js'), 'console.log(1)');
  await writeFile(join(dir.path, 'secret.txt'), 'outside dist');
  const host = {
    async fetch(request: Request) {
      seen.push({ method: request.method, url: request.url, body: await request.text(), lastEventId: request.headers.get('last-event-id') });
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

test('forwards /api requests to the host with method, body and headers, and relays status and body', async () => {
  const response = await fetch(new URL('/api/sessions/x/messages', server.url), { method: 'POST', body: '{"text":"hi"}', headers: { 'content-type': 'application/json' } });
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
