// The HTTP probe set of issue 11: what a hostile page or client sends a served host. Every answer
// must be a typed refusal or a success — never a 5xx — and nothing may be created by a refused request.
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { createHost, openSessionStore, serveHost, type Host, type HostServer, type SessionStore } from 'dsh-host';
import { faultTrials, makeTempDir, reportFaults, type TempDir } from '@dsh/test-utils';

type Answer = { status: number; text: string };

let dir: TempDir;
let store: SessionStore;
let host: Host;
let server: HostServer;
let own: string;
const answers: { probe: string; status: number }[] = [];

function send(method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = httpRequest({ host: '127.0.0.1', port: server.port, method, path, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => {
        resolve({ status: response.statusCode ?? 0, text });
      });
    });
    outgoing.on('error', reject);
    outgoing.end(body);
  });
}

async function probe(name: string, method: string, path: string, headers: Record<string, string>, body?: string): Promise<Answer> {
  const answer = await send(method, path, { host: own, ...headers }, body);
  answers.push({ probe: name, status: answer.status });
  return answer;
}

const json = { 'content-type': 'application/json' };

beforeAll(async () => {
  dir = await makeTempDir();
  store = await openSessionStore({ dir: dir.path });
  host = createHost({ store, model: createScriptedModel(Array.from({ length: 200 }, () => ({ text: 'ok' }))) });
  server = await serveHost(host);
  own = `127.0.0.1:${server.port}`;
});

afterAll(async () => {
  const status5xx = answers.filter((answer) => answer.status >= 500).length;
  reportFaults('http-probes', {
    trials: answers.length,
    status5xx,
    refused: answers.filter((answer) => answer.status >= 400 && answer.status < 500).length,
  });
  await server.close();
  await host.close();
  await store.close();
  await dir.remove();
});

describe('the HTTP probe set (zero 5xx)', { timeout: 300_000 }, () => {
  it('refuses CSRF (text/plain, form, foreign Origin, cross-site fetch metadata) and creates nothing', async () => {
    const before = (await host.list()).length;
    const bodies = ['{"title":"x","config":{"cwd":"/"}}', 'title=x'];
    for (const body of bodies) {
      for (const headers of [
        { 'content-type': 'text/plain' },
        { 'content-type': 'application/x-www-form-urlencoded' },
        { 'content-type': 'multipart/form-data; boundary=x' },
        { ...json, origin: 'https://evil.example' },
        { ...json, origin: 'null' },
        { ...json, 'sec-fetch-site': 'cross-site' },
      ]) {
        const answer = await probe('csrf', 'POST', '/api/sessions', headers, body);
        expect([403, 415]).toContain(answer.status);
      }
    }
    expect((await host.list()).length).toBe(before);
  });

  it('refuses rebinding Hosts for every route', async () => {
    for (const name of ['attacker.example', 'attacker.example:80', '127.0.0.1.nip.io', 'localhost.evil', 'a b']) {
      for (const path of ['/api/sessions', '/api/openapi.json', '/api/sessions/x/events']) {
        const answer = await send('GET', path, { host: name });
        answers.push({ probe: 'rebinding', status: answer.status });
        expect([400, 403], `${name} ${path} → ${answer.status}`).toContain(answer.status);
      }
    }
  });

  it('answers malformed Host headers with 400 BAD_REQUEST on every route, never a 5xx', async () => {
    const names = [
      '999.999.999.999',
      '1.2.3.4.5',
      '256.256.256.256:80',
      '01.02.03.04',
      '4294967296',
      '0x7f.1',
      'localhost:99999',
      'localhost:0',
      'localhost:-1',
      'a:b:c',
      '[::1',
      '[zz]:80',
      '[fe80::1%25lo]',
      '::1',
      'exa mple',
      'user@host',
      'a..b',
      `${'a'.repeat(300)}.example`,
      'host/x',
      '\u00e4.example',
    ];
    for (const name of names) {
      for (const [method, path] of [
        ['GET', '/api/sessions'],
        ['GET', '/api/openapi.json'],
        ['GET', '/api/sessions/x/events'],
        ['POST', '/api/sessions'],
      ] as const) {
        const answer = await send(method, path, { host: name, ...json }, method === 'POST' ? '{}' : undefined);
        answers.push({ probe: 'host-syntax', status: answer.status });
        expect([answer.status, (JSON.parse(answer.text) as { error: { code: string } }).error.code], `${name} ${method} ${path}`).toEqual([
          400,
          'BAD_REQUEST',
        ]);
      }
    }
  });

  it('answers bad bodies with 4xx', async () => {
    const bodies = [
      '',
      '{',
      '[]',
      'null',
      '1',
      '"x"',
      '{"title":1}',
      '{"title":"\\u0000"}',
      '{"title":"a\\u202Eb"}',
      '{"unknown":1}',
      `{"title":"${'x'.repeat(300)}"}`,
      `${'['.repeat(5000)}${']'.repeat(5000)}`,
      '{"config":{"cwd":123}}',
      '{"config":{"tools":"all"}}',
      '\u0000\u0001',
      '{"__proto__":{"polluted":true}}',
    ];
    for (const body of bodies) {
      const answer = await probe('bodies', 'POST', '/api/sessions', json, body);
      expect(answer.status, body.slice(0, 40)).toBeLessThan(500);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    }
  });

  it('answers hostile ids and paths with 4xx', async () => {
    const ids = [
      '..',
      '..%2f..%2fetc%2fpasswd',
      '%2e%2e',
      'x'.repeat(5000),
      '%00',
      '%E2%80%AE',
      'a%0Ab',
      '%F0%9F%98%80',
      'CON',
      '.leases',
      '-',
      'x.jsonl',
    ];
    for (const id of ids) {
      for (const [method, suffix, body] of [
        ['GET', '', undefined],
        ['GET', '/lineage', undefined],
        ['POST', '/messages', '{"text":"hi"}'],
        ['POST', '/fork', '{}'],
        ['PATCH', '', '{"title":"t"}'],
      ] as const) {
        const answer = await probe('ids', method, `/api/sessions/${id}${suffix}`, body === undefined ? {} : json, body);
        expect(answer.status, `${method} ${id}${suffix}`).toBeLessThan(500);
      }
    }
  });

  it('answers every cut that is not an event seq with 4xx, normalising -0 to 0', async () => {
    const created = JSON.parse((await probe('cuts', 'POST', '/api/sessions', json, '{"title":"cuts"}')).text) as { sessionId: string };
    const id = created.sessionId;
    for (const cut of [
      '-0',
      '1e400',
      '-1e400',
      '"3"',
      String(2 ** 53),
      String(2 ** 53 + 2),
      '-1',
      '1.5',
      'null',
      'true',
      '[0]',
      '{}',
      '1e-400',
      '0.0000001',
      '9007199254740993',
    ]) {
      const answer = await probe('cuts', 'POST', `/api/sessions/${id}/fork`, json, `{"atSeq":${cut}}`);
      expect(answer.status, cut).toBeLessThan(500);
      if (cut === '-0' || cut === '1e-400') expect(answer.status, cut).toBe(201);
    }
  });

  it('stays up and 5xx-free under concurrent creates, messages, forks and renames', async () => {
    const rounds = faultTrials(4, 40);
    const created = JSON.parse((await probe('concurrency', 'POST', '/api/sessions', json, '{"title":"busy"}')).text) as {
      sessionId: string;
    };
    for (let round = 0; round < rounds; round += 1) {
      await Promise.all([
        probe('concurrency', 'POST', '/api/sessions', json, `{"title":"c${round}"}`),
        probe('concurrency', 'POST', `/api/sessions/${created.sessionId}/messages`, json, `{"text":"m${round}"}`),
        probe('concurrency', 'POST', `/api/sessions/${created.sessionId}/fork`, json, '{}'),
        probe(
          'concurrency',
          'POST',
          `/api/sessions/${created.sessionId}/fork`,
          { ...json, 'idempotency-key': `k${round % 3}` },
          '{"atSeq":0}',
        ),
        probe('concurrency', 'PATCH', `/api/sessions/${created.sessionId}`, json, `{"title":"busy"}`),
        probe('concurrency', 'GET', '/api/sessions', {}),
        probe('concurrency', 'POST', `/api/sessions/${created.sessionId}/cancel`, {}),
      ]);
    }
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
  });
});
