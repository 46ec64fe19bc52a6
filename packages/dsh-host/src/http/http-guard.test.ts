import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { checkRequest, type serveHost, type HostServer } from 'dsh-host';
import { servedHost } from '../__fixtures__/served-host.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function start(options: Parameters<typeof serveHost>[1] = {}) {
  return servedHost(cleanups, options);
}

/** A raw request, so `Host` can be anything a browser under DNS rebinding would send. */
function send(
  server: HostServer,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<{ status: number; json: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, json: text === '' ? undefined : (JSON.parse(text) as unknown) });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

const codeOf = (json: unknown) => (json as { error?: { code?: string } } | undefined)?.error?.code;

describe('the HTTP guard on a served host', () => {
  it('refuses a cross-site text/plain POST (no preflight) before it creates anything', async () => {
    const { host, server } = await start();
    const attack = await send(
      server,
      'POST',
      '/api/sessions',
      {
        host: `127.0.0.1:${server.port}`,
        origin: 'https://evil.example',
        'sec-fetch-site': 'cross-site',
        'content-type': 'text/plain;charset=UTF-8',
      },
      JSON.stringify({ title: 'owned', config: { cwd: '/' } }),
    );
    expect(attack.status).toBe(403);
    expect(codeOf(attack.json)).toBe('CROSS_ORIGIN');
    expect(await host.list()).toEqual([]);
  });

  it('refuses a text/plain body even from an old browser that sends no Origin (415)', async () => {
    const { host, server } = await start();
    const attack = await send(
      server,
      'POST',
      '/api/sessions',
      { host: `127.0.0.1:${server.port}`, 'content-type': 'text/plain' },
      '{"title":"x"}',
    );
    expect(attack.status).toBe(415);
    expect(codeOf(attack.json)).toBe('UNSUPPORTED_MEDIA_TYPE');
    const form = await send(
      server,
      'POST',
      '/api/sessions',
      { host: `127.0.0.1:${server.port}`, 'content-type': 'application/x-www-form-urlencoded' },
      'title=x',
    );
    expect(form.status).toBe(415);
    expect(await host.list()).toEqual([]);
  });

  it('refuses a DNS-rebinding Host for reads as well as writes', async () => {
    const { server } = await start();
    const read = await send(server, 'GET', '/api/sessions', { host: `attacker.example:${server.port}` });
    expect(read.status).toBe(403);
    expect(codeOf(read.json)).toBe('HOST_NOT_ALLOWED');
    const write = await send(server, 'POST', '/api/sessions', { host: 'attacker.example', 'content-type': 'application/json' }, '{}');
    expect(write.status).toBe(403);
  });

  it('accepts the bound address, localhost, an IP literal and configured names', async () => {
    const { server } = await start({ allowedHosts: ['dsh.lan', '.corp.example'] });
    for (const name of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      'app.localhost',
      '[::1]:1',
      'dsh.lan',
      'box.corp.example',
    ]) {
      expect((await send(server, 'GET', '/api/sessions', { host: name })).status, name).toBe(200);
    }
    expect((await send(server, 'GET', '/api/sessions', { host: 'dsh.lan.evil.example' })).status).toBe(403);
    expect((await send(server, 'GET', '/api/sessions', { host: 'corp.example.evil' })).status).toBe(403);
  });

  it('lets the same origin (and requests without browser headers) change state with JSON', async () => {
    const { server } = await start();
    const own = `127.0.0.1:${server.port}`;
    const sameOrigin = await send(
      server,
      'POST',
      '/api/sessions',
      { host: own, origin: `http://${own}`, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' },
      '{"title":"mine"}',
    );
    expect(sameOrigin.status).toBe(201);
    const cli = await send(server, 'POST', '/api/sessions', { host: own, 'content-type': 'application/json; charset=utf-8' }, '{}');
    expect(cli.status).toBe(201);
    // A bodyless POST (cancel, open) needs no content type; a foreign Origin still may not send it.
    const { sessionId } = cli.json as { sessionId: string };
    expect((await send(server, 'POST', `/api/sessions/${sessionId}/cancel`, { host: own })).status).toBe(200);
    expect((await send(server, 'POST', `/api/sessions/${sessionId}/cancel`, { host: own, origin: 'null' })).status).toBe(403);
  });

  it('refuses a same-site page on another port unless its origin is allowed', async () => {
    const { server } = await start({ allowedOrigins: ['http://localhost:5173'] });
    const own = `localhost:${server.port}`;
    const headers = { host: own, 'content-type': 'application/json' };
    expect((await send(server, 'POST', '/api/sessions', { ...headers, origin: 'http://localhost:9999' }, '{}')).status).toBe(403);
    expect((await send(server, 'POST', '/api/sessions', { ...headers, origin: 'http://localhost:5173' }, '{}')).status).toBe(201);
  });

  it('checks the token before the route: 401 with WWW-Authenticate, on loopback too when set', async () => {
    const { server } = await start({ token: 'a-long-enough-secret-token' });
    const own = `127.0.0.1:${server.port}`;
    expect((await send(server, 'GET', '/api/sessions', { host: own })).status).toBe(401);
    expect((await send(server, 'GET', '/api/sessions', { host: own, authorization: 'Bearer a-long-enough-secret-token' })).status).toBe(
      200,
    );
  });

  it('refuses titles with control characters with a 400 naming the field', async () => {
    const { host, server } = await start();
    const own = `127.0.0.1:${server.port}`;
    const bad = await send(
      server,
      'POST',
      '/api/sessions',
      { host: own, 'content-type': 'application/json' },
      JSON.stringify({ title: '\u0000' }),
    );
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toContain('title');
    await expect(host.create({ title: 'a\u001b[2Jb' })).rejects.toMatchObject({ code: 'INVALID_TITLE' });
    expect(await host.list()).toEqual([]);
  });

  it('documents 401, 403 and 415 in the OpenAPI document', async () => {
    const { server } = await start();
    const doc = (await send(server, 'GET', '/api/openapi.json', { host: `127.0.0.1:${server.port}` })).json as {
      paths: Record<string, Record<string, { responses?: Record<string, unknown> }>>;
    };
    const create = doc.paths['/api/sessions']?.post?.responses ?? {};
    expect(Object.keys(create)).toEqual(expect.arrayContaining(['401', '403', '415']));
  });
});

describe('checkRequest', () => {
  it('passes requests with no browser headers and no Host policy (the in-process handler)', () => {
    expect(checkRequest(new Request('http://dsh.test/api/sessions', { method: 'POST' }), {})).toBeUndefined();
    expect(
      checkRequest(new Request('http://dsh.test/api/sessions', { method: 'DELETE', headers: { 'sec-fetch-site': 'same-site' } }), {})?.code,
    ).toBe('CROSS_ORIGIN');
  });
});

describe('malformed Host headers', () => {
  const malformed = ['999.999.999.999', '1.2.3.4.5', '256.1.1.1:80', 'localhost:99999', 'localhost:0', 'a:b', '[zz]', '::1', 'exa mple'];

  /** Node's client replaces an empty Host with its own: an empty one needs a raw request. */
  function sendRaw(server: HostServer, head: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = connect(server.port, '127.0.0.1', () => socket.end(head));
      let text = '';
      socket.setEncoding('utf8');
      socket.on('data', (chunk: string) => (text += chunk));
      socket.on('end', () => {
        resolve(text);
      });
      socket.on('error', reject);
    });
  }

  it('are 400 BAD_REQUEST naming the header on a served host, for reads, writes and streams', async () => {
    const { host, server } = await start();
    for (const name of malformed) {
      for (const [method, path] of [
        ['GET', '/api/sessions'],
        ['POST', '/api/sessions'],
        ['GET', '/api/sessions/x/events'],
      ] as const) {
        const answer = await send(
          server,
          method,
          path,
          { host: name, 'content-type': 'application/json' },
          method === 'POST' ? '{}' : undefined,
        );
        expect([answer.status, codeOf(answer.json)], `${JSON.stringify(name)} ${method} ${path}`).toEqual([400, 'BAD_REQUEST']);
        expect(JSON.stringify(answer.json)).toContain('"headers","host"');
      }
    }
    const empty = await sendRaw(server, 'GET /api/sessions HTTP/1.1\r\nHost: \r\nConnection: close\r\n\r\n');
    expect(empty).toMatch(/^HTTP\/1\.1 400 /);
    expect(empty).toContain('"code":"BAD_REQUEST"');
    expect(await host.list()).toEqual([]);
    for (const name of ['[::1]:80', `localhost:${server.port}`, '127.0.0.1']) {
      expect((await send(server, 'GET', '/api/sessions', { host: name })).status, name).toBe(200);
    }
  });

  it('are 400 BAD_REQUEST in-process too (host.fetch, no Host policy)', async () => {
    const { host } = await start();
    for (const name of malformed.filter((value) => value !== '')) {
      const answer = await host.fetch(new Request('http://dsh.test/api/sessions', { headers: { host: name } }));
      expect([answer.status, ((await answer.json()) as { error: { code: string } }).error.code], name).toEqual([400, 'BAD_REQUEST']);
    }
    expect((await host.fetch(new Request('http://dsh.test/api/sessions', { headers: { host: 'localhost:8080' } }))).status).toBe(200);
  });
});
