/**
 * SPEC §23: whether a session takes workspace checkpoints is stored in its config. The HTTP bodies of
 * `POST /api/sessions`, `…/fork` and `…/peers` take `checkpoints: boolean` and store it (a value that is
 * not a boolean is a typed 400 creating nothing); a host made with `noCheckpoints` stores `false` in
 * every session it creates or forks, unless the request chose.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { createKeylessModel } from 'dsh-agent';
import { createHost, type Host } from 'dsh-host';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function setup(noCheckpoints = false): Host {
  const store = createMemoryStore();
  const host = createHost({ store, model: createKeylessModel(), ...(noCheckpoints ? { noCheckpoints: true } : {}) });
  cleanups.push(async () => {
    await host.close();
    await store.close();
  });
  return host;
}

/** The session's latest stored config. */
async function configOf(host: Host, id: string): Promise<unknown> {
  const { events } = await host.observe(id);
  return events.findLast((event) => event.type === 'session/config')?.data;
}

/** A session with cwd `/tmp/base` and one completed turn. */
async function baseline(host: Host): Promise<string> {
  const { sessionId } = await host.query({ prompt: 'hello', cwd: '/tmp/base', title: 'base' });
  return sessionId;
}

describe('checkpoints: boolean in the HTTP bodies (SPEC §23)', () => {
  it('POST /api/sessions stores config.checkpoints: false', async () => {
    const host = setup();
    const created = await call(host, 'POST', '/api/sessions', { config: { cwd: '/tmp/w', checkpoints: false } });
    expect(created.status).toBe(201);
    expect(await configOf(host, created.body!.sessionId as string)).toEqual({ cwd: '/tmp/w', checkpoints: false });
  });

  it("POST …/fork stores checkpoints: false merged over the child's inherited config, and inside a config that replaces it", async () => {
    const host = setup();
    const base = await baseline(host);
    const merged = await call(host, 'POST', `/api/sessions/${base}/fork`, { checkpoints: false });
    expect(merged.status).toBe(201);
    expect(await configOf(host, merged.body!.sessionId as string)).toMatchObject({ cwd: '/tmp/base', checkpoints: false });
    const replaced = await call(host, 'POST', `/api/sessions/${base}/fork`, { config: { cwd: '/tmp/other', checkpoints: false } });
    expect(replaced.status).toBe(201);
    expect(await configOf(host, replaced.body!.sessionId as string)).toEqual({ cwd: '/tmp/other', checkpoints: false });
    // The parent keeps its own choice (none stored: on).
    expect(await configOf(host, base)).not.toHaveProperty('checkpoints');
  });

  it("POST …/peers stores checkpoints: false in every peer, a peer's own config.checkpoints winning", async () => {
    const host = setup();
    const base = await baseline(host);
    const answer = await call(host, 'POST', `/api/sessions/${base}/peers`, {
      checkpoints: false,
      peers: [{ prompt: 'a' }, { prompt: 'b', config: { checkpoints: true } }],
    });
    expect(answer.status).toBe(201);
    const [first, second] = (answer.body!.peers as { sessionId: string }[]).map((peer) => peer.sessionId) as [string, string];
    await Promise.all([host.idle(first), host.idle(second)]);
    expect(await configOf(host, first)).toMatchObject({ cwd: '/tmp/base', checkpoints: false });
    expect(await configOf(host, second)).toMatchObject({ cwd: '/tmp/base', checkpoints: true });
  });

  it('refuses a checkpoints value that is not a boolean: 400 BAD_REQUEST naming the field and what came, creating nothing', async () => {
    const host = setup();
    const base = await baseline(host);
    const before = (await host.list()).length;
    const bad = [
      ['/api/sessions', { config: { checkpoints: 'no' } }, 'config.checkpoints', '"no"'],
      [`/api/sessions/${base}/fork`, { checkpoints: 0 }, 'checkpoints', '0'],
      [`/api/sessions/${base}/fork`, { config: { checkpoints: null } }, 'config.checkpoints', 'null'],
      [`/api/sessions/${base}/peers`, { checkpoints: 'false', peers: [{ prompt: 'a' }] }, 'checkpoints', '"false"'],
      [`/api/sessions/${base}/peers`, { peers: [{ prompt: 'a', config: { checkpoints: [] } }] }, 'peers.0.config.checkpoints', '[]'],
    ] as const;
    for (const [path, body, field, came] of bad) {
      const answer = await call(host, 'POST', path, body);
      expect(answer.status, path).toBe(400);
      expect(answer.body!.error.code).toBe('BAD_REQUEST');
      expect(answer.body!.error.message).toContain(field);
      expect(answer.body!.error.message).toContain(`expected true or false, got ${came}`);
    }
    expect(await host.list()).toHaveLength(before);
  });
});

describe('createHost({ noCheckpoints: true }) (dsh --no-checkpoints, dsh peers, dsh serve)', () => {
  it('stores checkpoints: false in every session it creates or forks: create, query, query with forkSession, fork, peers', async () => {
    const host = setup(true);
    const created = await host.create({ config: { cwd: '/tmp/c' } });
    const bare = await host.create();
    const queried = await host.query({ prompt: 'hi', cwd: '/tmp/q' });
    const forkedByQuery = await host.query({ prompt: 'again', resume: queried.sessionId, forkSession: true });
    const forked = await host.fork(queried.sessionId);
    const peers = await host.peers(queried.sessionId, { peers: [{ prompt: 'a' }, { prompt: 'b' }] });
    const ids = [created.sessionId, bare.sessionId, queried.sessionId, forkedByQuery.sessionId, forked.sessionId];
    for (const peer of peers.peers) {
      await host.idle(peer.sessionId);
      ids.push(peer.sessionId);
    }
    for (const id of ids) expect(await configOf(host, id), id).toMatchObject({ checkpoints: false });
    expect(await configOf(host, created.sessionId)).toEqual({ cwd: '/tmp/c', checkpoints: false });
  });

  it("a request's own checkpoints wins over the host's", async () => {
    const host = setup(true);
    const created = await host.create({ config: { checkpoints: true } });
    const queried = await host.query({ prompt: 'hi', cwd: '/tmp/q', checkpoints: true });
    const forked = await host.fork(queried.sessionId, { configPatch: { checkpoints: true } });
    for (const id of [created.sessionId, queried.sessionId, forked.sessionId])
      expect(await configOf(host, id)).toMatchObject({ checkpoints: true });
  });

  it('a host without it stores nothing of the kind', async () => {
    const host = setup();
    const created = await host.create({ config: { cwd: '/tmp/c' } });
    const forked = await host.fork((await host.query({ prompt: 'hi', cwd: '/tmp/q' })).sessionId);
    expect(await configOf(host, created.sessionId)).toEqual({ cwd: '/tmp/c' });
    expect(await configOf(host, forked.sessionId)).not.toHaveProperty('checkpoints');
  });
});
