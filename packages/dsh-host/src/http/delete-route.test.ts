import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import { createHost, type Host } from 'dsh-host';
import { makeTempDir } from '@dsh/test-utils';
import { createGatedModel, type GatedModel } from '../__fixtures__/gated-model.js';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(store: SessionStore = createMemoryStore()): { host: Host; model: GatedModel } {
  const model = createGatedModel([]);
  const host = createHost({ store, model });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return { host, model };
}

/** A session with one completed turn, left live (and idle) in `host`. */
async function idleLiveSession(host: Host, model: GatedModel, title: string): Promise<string> {
  const { sessionId } = await host.create({ title });
  await host.send(sessionId, 'hello');
  await model.requested(model.requests.length + 1);
  model.answer();
  await host.idle(sessionId);
  return sessionId;
}

describe('DELETE /api/sessions/:id', () => {
  it('deletes a stored session by id or by name; afterwards it is SESSION_NOT_FOUND and its fork keeps its copy', async () => {
    const { host, model } = setup();
    const parent = await idleLiveSession(host, model, 'parent');
    const child = await host.fork(parent, { title: 'child' });
    await host.release(child.sessionId);
    await host.release(parent);

    expect(await call(host, 'DELETE', '/api/sessions/parent')).toEqual({ status: 200, body: { sessionId: parent, deleted: true } });
    expect((await call(host, 'GET', `/api/sessions/${parent}`)).body?.error.code).toBe('SESSION_NOT_FOUND');
    const missing = await call(host, 'DELETE', `/api/sessions/${parent}`);
    expect([missing.status, missing.body?.error.code]).toEqual([404, 'SESSION_NOT_FOUND']);
    const kept = await call(host, 'GET', `/api/sessions/${child.sessionId}`);
    expect(kept.status).toBe(200);
    expect((await call(host, 'GET', `/api/sessions/${child.sessionId}/lineage`)).body?.ancestors).toEqual([{ id: parent, missing: true }]);
  });

  it('releases a session live in this host and idle, then deletes it', async () => {
    const { host, model } = setup();
    const id = await idleLiveSession(host, model, 'idle');
    expect((await call(host, 'GET', `/api/sessions/${id}`)).body?.live).toBe(true);
    expect((await call(host, 'DELETE', `/api/sessions/${id}`)).status).toBe(200);
    expect((await call(host, 'GET', '/api/sessions')).body?.sessions).toEqual([]);
  });

  it('refuses 409 SESSION_BUSY while the session runs a turn in this host, and deletes it once the turn ended', async () => {
    const { host, model } = setup();
    const id = await idleLiveSession(host, model, 'busy');
    await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'a long one' });
    await model.requested(2);
    const refused = await call(host, 'DELETE', `/api/sessions/${id}`);
    expect([refused.status, refused.body?.error.code]).toEqual([409, 'SESSION_BUSY']);
    expect(refused.body?.error.message).toContain('is running a turn');
    model.answer();
    await host.idle(id);
    const events = (await call(host, 'GET', `/api/sessions/${id}`)).body?.events as unknown[];
    expect(events.at(-1)).toMatchObject({ type: 'turn/end', data: { reason: { kind: 'completed' } } });
    expect((await call(host, 'DELETE', `/api/sessions/${id}`)).status).toBe(200);
  });

  it('refuses 409 SESSION_BUSY while another holder has the session open, and deletes nothing', async () => {
    const dir = await makeTempDir('dsh-delete-route-');
    cleanups.push(() => dir.remove());
    const holderStore = await openSessionStore({ dir: dir.path });
    const held = await holderStore.create({ title: 'held' });
    cleanups.push(async () => {
      await held.close();
      await holderStore.close();
    });
    const { host } = setup(await openSessionStore({ dir: dir.path }));
    const refused = await call(host, 'DELETE', '/api/sessions/held');
    expect([refused.status, refused.body?.error.code]).toEqual([409, 'SESSION_BUSY']);
    expect((await call(host, 'GET', `/api/sessions/${held.id}`)).status).toBe(200);
  });
});
