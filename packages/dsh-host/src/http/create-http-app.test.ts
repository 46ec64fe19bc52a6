import { afterEach, describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { createScriptedModel } from 'dsh-agent';
import { createMemoryStore, SessionError, type SessionStore } from 'dsh-session';
import { createHost, INTERNAL_ERROR_BODY, openApiDocument, type Host } from 'dsh-host';
import { createCrashedSession } from '../__fixtures__/crashed-session.js';
import { createGatedModel } from '../__fixtures__/gated-model.js';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(options: { model?: Parameters<typeof createHost>[0]['model']; store?: SessionStore; logged?: unknown[] } = {}): Host {
  const store = options.store ?? createMemoryStore();
  const logged = options.logged;
  const host = createHost({
    store,
    model: options.model ?? createScriptedModel(Array.from({ length: 10 }, (_, index) => ({ text: `answer ${index + 1}` }))),
    ...(logged === undefined
      ? {}
      : {
          logger: { error: (...args: unknown[]) => logged.push(args) },
          http: { logger: { error: (...args: unknown[]) => logged.push(args) } },
        }),
  });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return host;
}

async function sessionWithTurn(host: Host, title?: string): Promise<string> {
  const created = await call(host, 'POST', '/api/sessions', title === undefined ? {} : { title });
  const id = created.body!.sessionId as string;
  await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'hello' });
  await host.idle(id);
  return id;
}

/** Reads SSE frames from a streaming response until `count` events arrived, then cancels it. */
async function readEvents(response: Response, count: number): Promise<{ id: string; event: SessionEvent }[]> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  const frames: { id: string; event: SessionEvent }[] = [];
  let buffer = '';
  try {
    while (frames.length < count) {
      const { value, done } = await reader.read();
      if (done) break;
      buffer += value;
      let end: number;
      while ((end = buffer.indexOf('\n\n')) !== -1) {
        const frame = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const id = /^id: (.*)$/m.exec(frame)?.[1];
        const data = /^data: (.*)$/m.exec(frame)?.[1];
        if (id !== undefined && data !== undefined) frames.push({ id, event: JSON.parse(data) as SessionEvent });
      }
    }
  } finally {
    await reader.cancel();
  }
  return frames;
}

describe('HTTP API (in-process through host.fetch)', () => {
  it('creates, lists, observes and messages a session', async () => {
    const host = setup();
    const created = await call(host, 'POST', '/api/sessions', { title: 'first', config: { tools: [] } });
    expect(created.status).toBe(201);
    const id = created.body!.sessionId as string;
    const queued = await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'hi' });
    expect(queued.status).toBe(202);
    expect(queued.body!.inputId).toBeTypeOf('string');
    await host.idle(id);

    const list = await call(host, 'GET', '/api/sessions');
    expect(list.status).toBe(200);
    expect(list.body!.sessions).toEqual([
      expect.objectContaining({
        id,
        title: 'first',
        live: true,
        status: 'idle',
        lastSeq: expect.any(Number),
        createdAt: expect.any(Number),
        updatedAt: expect.any(Number),
      }),
    ]);
    const observed = await call(host, 'GET', `/api/sessions/${id}`);
    expect(observed.status).toBe(200);
    expect(Object.keys(observed.body!)).toEqual(
      expect.arrayContaining(['header', 'events', 'firstLifecycleSeq', 'live', 'needsRepair', 'pendingInputs']),
    );
    expect((observed.body!.events as SessionEvent[]).at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } });
    expect(observed.body!.pendingInputs).toEqual([]);
    // Names work wherever an id does.
    expect((await call(host, 'GET', '/api/sessions/first')).body!.header.id).toBe(id);
  });

  it('GET never repairs a crashed session; POST /open repairs it and answers 200 with the live observation, idempotently', async () => {
    const store = createMemoryStore();
    const { id, storedLength } = await createCrashedSession(store, 'crash');
    const host = setup({ store });
    const stored = (await store.inspect(id)).events;
    for (let attempt = 0; attempt < 2; attempt++) {
      const cold = await call(host, 'GET', `/api/sessions/${id}`);
      expect(cold.status).toBe(200);
      expect(cold.body).toMatchObject({ live: false, needsRepair: true, formatVersion: 7 });
      expect(cold.body!.events).toEqual(stored);
    }
    expect((await store.inspect(id)).events).toEqual(stored);
    expect((await call(host, 'GET', '/api/sessions')).body!.sessions[0]).toMatchObject({ id, status: 'needs-repair', live: false });

    const opened = await call(host, 'POST', '/api/sessions/crash/open');
    expect(opened.status).toBe(200);
    expect(opened.body).toMatchObject({
      live: true,
      needsRepair: false,
      firstLifecycleSeq: storedLength,
      formatVersion: 7,
      title: 'crash',
    });
    const added = (opened.body!.events as SessionEvent[]).slice(storedLength);
    expect(added.map((event) => event.type)).toEqual(['tool/result', 'tool/result', 'step/end', 'turn/end', 'session/end-seed']);
    expect(added[3]?.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } });
    expect((await store.inspect(id)).events).toEqual(opened.body!.events);

    const again = await call(host, 'POST', `/api/sessions/${id}/open`);
    expect(again.status).toBe(200);
    expect(again.body!.events).toEqual(opened.body!.events);
    expect((await call(host, 'GET', '/api/sessions')).body!.sessions[0]).toMatchObject({ id, status: 'idle', live: true });
  });

  it('answers POST /open with 404 for an unknown session and 409 SESSION_BUSY for one held elsewhere', async () => {
    const store = createMemoryStore();
    const host = setup({ store });
    const missing = await call(host, 'POST', '/api/sessions/nope/open');
    expect(missing.status).toBe(404);
    expect(missing.body!.error.code).toBe('SESSION_NOT_FOUND');
    const held = await store.create();
    const busy = await call(host, 'POST', `/api/sessions/${held.id}/open`);
    expect(busy.status).toBe(409);
    expect(busy.body!.error).toMatchObject({ code: 'SESSION_BUSY', holder: { pid: process.pid } });
    await held.close();
  });

  it('forks with 201 and the fork fields, and 422 INVALID_CUT for a seq outside the observation', async () => {
    const host = setup();
    const id = await sessionWithTurn(host);
    const fork = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 2, title: 'branch' });
    expect(fork.status).toBe(201);
    expect(fork.body).toEqual({ sessionId: expect.any(String), parentSession: id, forkCut: 2, inheritedEventCount: 3 });
    const omitted = await call(host, 'POST', `/api/sessions/${id}/fork`);
    expect(omitted.status).toBe(201);
    const bad = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 999 });
    expect(bad.status).toBe(422);
    expect(bad.body!.error.code).toBe('INVALID_CUT');
    expect((await call(host, 'GET', '/api/sessions')).body!.sessions).toHaveLength(3);
  });

  it('returns the same child for a repeated Idempotency-Key', async () => {
    const host = setup();
    const id = await sessionWithTurn(host);
    const first = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 1 }, { 'idempotency-key': 'abc' });
    const again = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 1 }, { 'idempotency-key': 'abc' });
    expect(again).toEqual(first);
    const reused = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 2 }, { 'idempotency-key': 'abc' });
    expect(reused.status).toBe(422);
    expect(reused.body!.error.code).toBe('IDEMPOTENCY_MISMATCH');
  });

  it('answers a malformed body with 400 naming the field path', async () => {
    const host = setup();
    const id = await sessionWithTurn(host);
    const wrongType = await call(host, 'POST', `/api/sessions/${id}/fork`, { atSeq: 'three' });
    expect(wrongType.status).toBe(400);
    expect(wrongType.body!.error).toMatchObject({ code: 'BAD_REQUEST', issues: [expect.objectContaining({ path: ['atSeq'] })] });
    expect(wrongType.body!.error.message).toContain('atSeq');
    const nested = await call(host, 'POST', '/api/sessions', { config: { tools: [1] } });
    expect(nested.status).toBe(400);
    expect(nested.body!.error.issues[0].path).toEqual(['config', 'tools', 0]);
    const unknownKey = await call(host, 'PATCH', `/api/sessions/${id}`, { title: 'x', extra: true });
    expect(unknownKey.status).toBe(400);
    const notJson = await call(host, 'POST', `/api/sessions/${id}/messages`, '{not json');
    expect(notJson.status).toBe(400);
    expect(notJson.body!.error.code).toBe('BAD_REQUEST');
    const missing = await call(host, 'POST', `/api/sessions/${id}/messages`, {});
    expect(missing.body!.error.issues[0].path).toEqual(['text']);
  });

  it('maps error codes to statuses: 404 unknown session, 409 ambiguous name and busy session', async () => {
    const store = createMemoryStore();
    const host = setup({ store });
    expect((await call(host, 'GET', '/api/sessions/nope')).status).toBe(404);
    expect((await call(host, 'GET', '/api/sessions/nope')).body!.error.code).toBe('SESSION_NOT_FOUND');
    expect((await call(host, 'GET', '/api/no-such-route')).status).toBe(404);
    await call(host, 'POST', '/api/sessions', { title: 'twin' });
    // HTTP refuses a taken name (NAME_TAKEN); a library user of the same store may still reuse one.
    expect((await call(host, 'POST', '/api/sessions', { title: 'twin' })).body!.error.code).toBe('NAME_TAKEN');
    await (await store.create({ title: 'twin' })).close();
    const ambiguous = await call(host, 'GET', '/api/sessions/twin');
    expect(ambiguous.status).toBe(409);
    expect(ambiguous.body!.error).toMatchObject({ code: 'NAME_AMBIGUOUS', candidates: [expect.any(String), expect.any(String)] });
    // Held by someone else through the same store: the host cannot open it.
    const held = await store.create();
    const busy = await call(host, 'POST', `/api/sessions/${held.id}/messages`, { text: 'hi' });
    expect(busy.status).toBe(409);
    expect(busy.body!.error.code).toBe('SESSION_BUSY');
    await held.close();
  });

  it('renames, cancels and reports lineage', async () => {
    const model = createGatedModel([{ text: 'slow' }]);
    const host = setup({ model });
    const created = await call(host, 'POST', '/api/sessions', { title: 'root' });
    const id = created.body!.sessionId as string;
    await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'go' });
    await model.requested(1);
    expect((await call(host, 'GET', '/api/sessions')).body!.sessions[0].status).toBe('running');
    expect((await call(host, 'POST', `/api/sessions/${id}/cancel`)).body).toEqual({ cancelled: true });
    await host.idle(id);
    expect((await host.observe(id)).events.at(-1)?.data).toMatchObject({ reason: { kind: 'cancelled' } });
    expect((await call(host, 'POST', `/api/sessions/${id}/cancel`)).body).toEqual({ cancelled: false });

    const renamed = await call(host, 'PATCH', '/api/sessions/root', { title: 'renamed' });
    expect(renamed).toEqual({ status: 200, body: { sessionId: id, title: 'renamed' } });
    const child = (await call(host, 'POST', `/api/sessions/renamed/fork`, { title: 'child' })).body!;
    const lineage = await call(host, 'GET', `/api/sessions/child/lineage`);
    expect(lineage.status).toBe(200);
    expect(lineage.body).toMatchObject({ session: { id: child.sessionId }, ancestors: [{ id, title: 'renamed' }], descendants: [] });
  });

  it('compacts a session between turns', async () => {
    const host = setup({ model: createScriptedModel([{ text: 'first answer' }, { text: 'a short summary' }]) });
    const id = await sessionWithTurn(host);
    const compacted = await call(host, 'POST', `/api/sessions/${id}/compact`);
    expect(compacted.status).toBe(200);
    expect(compacted.body).toMatchObject({ compacted: true, summary: 'a short summary' });
    const { events } = await host.observe(id);
    expect(events.filter((event) => event.type.startsWith('compaction/')).every((event) => event.ignorable === true)).toBe(true);
    expect(events.find((event) => event.surfaceOp !== undefined)).toMatchObject({ type: 'user/message' });
  });

  it('answers an unknown failure with a logged 500 and a fixed body', async () => {
    const store = createMemoryStore();
    const logged: unknown[] = [];
    const broken: SessionStore = { ...store, list: () => Promise.reject(new Error('disk on fire: /secret/path')) };
    const host = setup({ store: broken, logged });
    const response = await call(host, 'GET', '/api/sessions');
    expect(response).toEqual({ status: 500, body: INTERNAL_ERROR_BODY });
    expect(JSON.stringify(response.body)).not.toContain('secret');
    expect(String(logged.flat(2).find((item) => item instanceof Error))).toContain('disk on fire');
  });

  it('answers a storage failure with 503 STORAGE_ERROR carrying the cause, a failed write included', async () => {
    const store = createMemoryStore();
    const logged: unknown[] = [];
    const denied = new Error('EACCES: permission denied, open /data/sessions');
    const broken: SessionStore = {
      ...store,
      list: () => Promise.reject(new SessionError('STORAGE_ERROR', `The session storage failed: ${denied.message}`, { cause: denied })),
      create: () =>
        Promise.reject(
          new SessionError('WRITE_FAILED', 'Could not write session s1.', { cause: new Error('ENOSPC: no space left on device') }),
        ),
    };
    const host = setup({ store: broken, logged });
    const listed = await call(host, 'GET', '/api/sessions');
    expect(listed.status).toBe(503);
    expect(listed.body!.error).toEqual({
      code: 'STORAGE_ERROR',
      message: 'The session storage failed: EACCES: permission denied, open /data/sessions',
    });
    const created = await call(host, 'POST', '/api/sessions', {});
    expect(created.status).toBe(503);
    expect(created.body!.error.code).toBe('STORAGE_ERROR');
    expect(created.body!.error.message).toContain('ENOSPC: no space left on device');
    expect(logged).toEqual([]);
  });

  it('refuses a body over the size limit with 413', async () => {
    const host = setup();
    const response = await call(host, 'POST', '/api/sessions', { title: 'x'.repeat(2 * 1024 * 1024) });
    expect(response.status).toBe(413);
    expect(response.body!.error.code).toBe('PAYLOAD_TOO_LARGE');
  });

  it('streams events from a seq as SSE, live ones included, and resumes after Last-Event-ID', async () => {
    const model = createGatedModel([{ text: 'streamed' }]);
    const host = setup({ model });
    const id = (await call(host, 'POST', '/api/sessions', {})).body!.sessionId as string;
    const response = await host.fetch(new Request(`http://dsh.test/api/sessions/${id}/events?from=0`));
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'go' });
    await model.requested(1);
    model.answer();
    await host.idle(id);
    const total = (await host.observe(id)).events;
    const frames = await readEvents(response, total.length);
    expect(frames.map((frame) => frame.event)).toEqual(total);
    expect(frames.map((frame) => frame.id)).toEqual(total.map((event) => String(event.seq)));

    const resumed = await host.fetch(
      new Request(`http://dsh.test/api/sessions/${id}/events?from=0`, { headers: { 'last-event-id': '3' } }),
    );
    const rest = await readEvents(resumed, total.length - 4);
    expect(rest.map((frame) => frame.event.seq)).toEqual(total.slice(4).map((event) => event.seq));

    expect((await call(host, 'GET', `/api/sessions/${id}/events?from=-1`)).status).toBe(400);
  });

  it('serves the generated OpenAPI document at GET /api/openapi.json', async () => {
    const host = setup();
    const response = await call(host, 'GET', '/api/openapi.json');
    expect(response.status).toBe(200);
    expect(response.body).toEqual(openApiDocument());
    expect((response.body!.components.schemas.ForkBody as { properties: object }).properties).toHaveProperty('atSeq');
  });
});
