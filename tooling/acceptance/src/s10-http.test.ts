/** SPEC §10 contract points through `host.fetch` (§11): routes, bodies, status codes and the error body. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { createMemoryStore, type SessionStore } from 'dsh-session';
import { createHost, type Host } from 'dsh-host';
import { completedTurnRows, type LogJsonRow, logRow } from '@dsh/test-utils';
import { appendAll } from './support.js';

let store: SessionStore;
let host: Host;
beforeEach(() => {
  store = createMemoryStore();
  host = createHost({ store });
});
afterEach(async () => {
  await host.close();
  await store.close();
});

type Json = Record<string, unknown>;

async function call(
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Json; response: Response }> {
  const init: RequestInit = { method, headers: { ...headers } };
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    (init.headers as Record<string, string>)['content-type'] = 'application/json';
  }
  const response = await host.fetch(new Request(`http://dsh.test${path}`, init));
  const text = await response.text();
  return { status: response.status, body: (text === '' ? {} : JSON.parse(text)) as Json, response };
}

/**
 * Asserts the §10 error body `{ error: { code, message } }`. The SPEC names the fields without saying
 * "exactly" (unlike §3.1), so extra diagnostics inside `error` (e.g. `issues`, `candidates`) are allowed.
 */
function expectError(result: { status: number; body: Json }, status: number, code?: string): void {
  expect(result.status, JSON.stringify(result.body)).toBe(status);
  expect(Object.keys(result.body)).toEqual(['error']);
  const error = result.body.error as Json;
  expect(Object.keys(error)).toEqual(expect.arrayContaining(['code', 'message']));
  expect(typeof error.message).toBe('string');
  expect(typeof error.code).toBe('string');
  if (code !== undefined) expect(error.code).toBe(code);
}

/** A cold session holding `specs` after its create seed; returns its events. */
async function cold(id: string, specs: LogJsonRow[], title?: string): Promise<readonly SessionEvent[]> {
  const session = await store.create(title === undefined ? { id } : { id, title });
  appendAll(session, specs);
  const events = [...session.events];
  await session.close();
  return events;
}

const listOf = (body: unknown) => (Array.isArray(body) ? body : (body as { sessions: unknown[] }).sessions) as Json[];

describe('§10 sessions', () => {
  it('§10 POST /api/sessions { title?, config? } → 201 { sessionId }', async () => {
    const created = await call('POST', '/api/sessions', { title: 'first', config: { cwd: '/w' } });
    expect(created.status).toBe(201);
    expect(Object.keys(created.body)).toEqual(['sessionId']);
    expect(typeof created.body.sessionId).toBe('string');
    expect((await store.inspect(created.body.sessionId as string)).header.id).toBe(created.body.sessionId);
    expect((await call('POST', '/api/sessions', {})).status).toBe(201);
  });

  it('§10 POST /api/sessions with a bad body → 400 with the error body', async () => {
    expectError(await call('POST', '/api/sessions', { title: 42 }), 400);
    expectError(await call('POST', '/api/sessions', '{not json'), 400);
  });

  it('§10 GET /api/sessions lists id, title, parentSession, createdAt, updatedAt, lastSeq, live, status', async () => {
    await cold('p', completedTurnRows(1), 'parent');
    await host.fork('p', { atSeq: 1 });
    const listed = await call('GET', '/api/sessions');
    expect(listed.status).toBe(200);
    const rows = listOf(listed.body);
    expect(rows).toHaveLength(2);
    for (const row of rows) {
      for (const key of ['id', 'createdAt', 'updatedAt', 'lastSeq', 'live', 'status']) expect(row, key).toHaveProperty(key);
    }
    const parent = rows.find((row) => row.id === 'p')!;
    expect(parent.title).toBe('parent');
    expect(rows.find((row) => row.id !== 'p')!.parentSession).toBe('p');
  });

  it('§10 GET /api/sessions/:id → { header, events, firstLifecycleSeq, live, needsRepair, pendingInputs }', async () => {
    const events = await cold('p', [...completedTurnRows(1), logRow.queued('in-1', 'waiting')]);
    const observed = await call('GET', '/api/sessions/p');
    expect(observed.status).toBe(200);
    for (const key of ['header', 'events', 'firstLifecycleSeq', 'live', 'needsRepair', 'pendingInputs'])
      expect(observed.body, key).toHaveProperty(key);
    expect(observed.body.events).toEqual(events);
    expect((observed.body.header as Json).id).toBe('p');
    expect(observed.body.needsRepair).toBe(false);
    expect(observed.body.pendingInputs).toEqual([events.at(-1)]);
  });

  it('§10 GET an unknown session → 404 SESSION_NOT_FOUND', async () => {
    expectError(await call('GET', '/api/sessions/nobody'), 404, 'SESSION_NOT_FOUND');
    expectError(await call('POST', '/api/sessions/nobody/messages', { text: 'x' }), 404, 'SESSION_NOT_FOUND');
    expectError(await call('POST', '/api/sessions/nobody/fork', {}), 404, 'SESSION_NOT_FOUND');
  });

  it('§10 a name that matches several sessions → 409 NAME_AMBIGUOUS', async () => {
    await cold('one', [], 'twin');
    await cold('two', [], 'twin');
    expectError(await call('GET', '/api/sessions/twin'), 409, 'NAME_AMBIGUOUS');
  });

  it('§10 PATCH /api/sessions/:id { title } renames; a bad body → 400', async () => {
    await cold('p', []);
    const patched = await call('PATCH', '/api/sessions/p', { title: 'renamed' });
    expect(patched.status).toBeGreaterThanOrEqual(200);
    expect(patched.status).toBeLessThan(300);
    const observed = await call('GET', '/api/sessions/p');
    const titles = (observed.body.events as SessionEvent[]).filter((event) => event.type === 'session/title');
    expect(titles.at(-1)?.data).toEqual({ title: 'renamed' });
    expectError(await call('PATCH', '/api/sessions/p', { title: 7 }), 400);
  });
});

describe('§10 messages, cancel, events, lineage', () => {
  it('§10 POST /api/sessions/:id/messages { text } → 202 { inputId }; a bad body → 400', async () => {
    await cold('p', []);
    const sent = await call('POST', '/api/sessions/p/messages', { text: 'hello' });
    expect(sent.status).toBe(202);
    expect(Object.keys(sent.body)).toEqual(['inputId']);
    await host.idle('p');
    const events = (await call('GET', '/api/sessions/p')).body.events as SessionEvent[];
    expect(events.some((event) => event.type === 'input/queued' && (event.data as { inputId: string }).inputId === sent.body.inputId)).toBe(
      true,
    );
    expectError(await call('POST', '/api/sessions/p/messages', {}), 400);
    expectError(await call('POST', '/api/sessions/p/messages', { text: 5 }), 400);
  });

  it('§10 POST /api/sessions/:id/cancel answers 2xx', async () => {
    await cold('p', []);
    const cancelled = await call('POST', '/api/sessions/p/cancel');
    expect(cancelled.status).toBeGreaterThanOrEqual(200);
    expect(cancelled.status).toBeLessThan(300);
  });

  it('§10 GET /api/sessions/:id/events?from=SEQ streams events from that seq as SSE', async () => {
    const events = await cold('p', completedTurnRows(1));
    const response = await host.fetch(new Request('http://dsh.test/api/sessions/p/events?from=2'));
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const decoder = new TextDecoder();
    let text = '';
    const deadline = Date.now() + 10_000;
    try {
      while (Date.now() < deadline) {
        const { value, done } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
        const seqs = [...text.matchAll(/^data: (.*)$/gm)]
          .map((match) => (JSON.parse(match[1]!) as { seq?: number }).seq)
          .filter((seq) => seq !== undefined);
        if (seqs.includes(events.length - 1)) break;
      }
    } finally {
      await reader.cancel();
    }
    const streamed = [...text.matchAll(/^data: (.*)$/gm)]
      .map((match) => JSON.parse(match[1]!) as SessionEvent)
      .filter((event) => typeof event.seq === 'number');
    expect(streamed).toEqual(events.slice(2));
  });

  it('§10 GET /api/sessions/:id/lineage names ancestors and descendants', async () => {
    await cold('root', completedTurnRows(1));
    const child = await host.fork('root', { atSeq: 2 });
    const grand = await host.fork(child.sessionId, { atSeq: 3 });
    const lineage = await call('GET', `/api/sessions/${child.sessionId}/lineage`);
    expect(lineage.status).toBe(200);
    expect(lineage.body).toHaveProperty('ancestors');
    expect(lineage.body).toHaveProperty('descendants');
    expect(JSON.stringify(lineage.body.ancestors)).toContain('"root"');
    expect(JSON.stringify(lineage.body.descendants)).toContain(`"${grand.sessionId}"`);
    expect(JSON.stringify(lineage.body.ancestors)).not.toContain(`"${grand.sessionId}"`);
  });
});

describe('§10 fork over HTTP', () => {
  it('§10 POST /api/sessions/:id/fork { atSeq } → 201 { sessionId, parentSession, forkCut, inheritedEventCount }', async () => {
    await cold('p', completedTurnRows(1, ['a']));
    const forked = await call('POST', '/api/sessions/p/fork', { atSeq: 4, title: 'branch' });
    expect(forked.status).toBe(201);
    expect(Object.keys(forked.body).sort()).toEqual(['forkCut', 'inheritedEventCount', 'parentSession', 'sessionId']);
    expect(forked.body).toMatchObject({ parentSession: 'p', forkCut: 4, inheritedEventCount: 5 });
    const child = await call('GET', `/api/sessions/${forked.body.sessionId as string}`);
    expect((child.body.header as Json).forkCut).toBe(4);
  });

  it('§10 POST fork without atSeq uses the omitted rule (latest closed turn and its standalone tail)', async () => {
    const events = await cold('p', [...completedTurnRows(1), logRow.title('t'), logRow.queued('q', 'later')]);
    const forked = await call('POST', '/api/sessions/p/fork', {});
    expect(forked.status).toBe(201);
    expect(forked.body.forkCut).toBe(events.length - 2);
  });

  it('§10 POST fork with a seq not in the session → 422 INVALID_CUT, nothing created', async () => {
    const events = await cold('p', completedTurnRows(1));
    for (const atSeq of [events.length, -1, 99]) expectError(await call('POST', '/api/sessions/p/fork', { atSeq }), 422, 'INVALID_CUT');
    expect(listOf((await call('GET', '/api/sessions')).body)).toHaveLength(1);
  });

  it('§10 POST fork with a malformed body → 400', async () => {
    await cold('p', completedTurnRows(1));
    expectError(await call('POST', '/api/sessions/p/fork', { atSeq: 'three' }), 400);
    expectError(await call('POST', '/api/sessions/p/fork', '[1,2'), 400);
    expect(listOf((await call('GET', '/api/sessions')).body)).toHaveLength(1);
  });

  it('§10 a repeated fork with the same Idempotency-Key returns the first child', async () => {
    await cold('p', completedTurnRows(1));
    const first = await call('POST', '/api/sessions/p/fork', { atSeq: 2 }, { 'Idempotency-Key': 'k-1' });
    const second = await call('POST', '/api/sessions/p/fork', { atSeq: 2 }, { 'Idempotency-Key': 'k-1' });
    expect(first.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(listOf((await call('GET', '/api/sessions')).body)).toHaveLength(2);
  });
});
