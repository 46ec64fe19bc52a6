import { afterEach, describe, expect, it } from 'vitest';
import { createMemoryStore, type Session, type SessionStore } from 'dsh-session';
import { createHost, defaultPeerNames, type Host } from 'dsh-host';
import { createGatedModel, type GatedModel } from '../__fixtures__/gated-model.js';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host over a memory store whose `observe` calls are counted. */
function setup(model: GatedModel): { host: Host; store: SessionStore; observed: string[] } {
  const inner = createMemoryStore();
  const observed: string[] = [];
  const store: SessionStore = {
    ...inner,
    observe: (id) => {
      observed.push(id);
      return inner.observe(id);
    },
  };
  const host = createHost({ store, model });
  cleanups.push(async () => {
    await host.close();
    await inner.close();
  });
  return { host, store, observed };
}

/** A session named `title` with one completed turn. */
async function baseline(host: Host, model: GatedModel, title: string): Promise<string> {
  const { sessionId } = await host.create({ title, config: { cwd: '/tmp/base' } });
  await host.send(sessionId, 'hello');
  await model.requested(1);
  model.answer();
  await host.idle(sessionId);
  return sessionId;
}

describe('POST /api/sessions/:id/peers', () => {
  it('forks every peer from one observation at one cut, and runs their first turns concurrently', async () => {
    const model = createGatedModel([{ text: 'base answer' }, { text: 'peer answer' }, { text: 'peer answer' }]);
    const { host, observed } = setup(model);
    const base = await baseline(host, model, 'base');
    observed.length = 0;

    const answer = await call(host, 'POST', `/api/sessions/base/peers`, {
      peers: [{ prompt: 'try A' }, { prompt: 'try B', title: 'bee', config: { cwd: '/tmp/b', tools: ['read_file'] } }],
    });
    expect(answer.status).toBe(201);
    // The baseline was observed once for all peers (name resolution lists, it does not observe).
    expect(observed.filter((id) => id === base)).toHaveLength(1);
    const observation = await host.observe(base);
    const lastTurnEnd = observation.events.findLast((event) => event.type === 'turn/end')!.seq;
    expect(answer.body).toEqual({
      baseline: base,
      cut: lastTurnEnd,
      peers: [
        { sessionId: expect.any(String), title: 'base-1' },
        { sessionId: expect.any(String), title: 'bee' },
      ],
    });

    // Both peers' first model requests are waiting at once: the turns run concurrently.
    await model.requested(3);
    const [first, second] = (answer.body!.peers as { sessionId: string }[]).map((peer) => peer.sessionId) as [string, string];
    for (const id of [first, second]) {
      const peer = await host.observe(id);
      expect(peer.header).toMatchObject({ parentSession: base, forkCut: lastTurnEnd, inheritedEventCount: lastTurnEnd + 1 });
      expect(peer.events.find((event) => event.type === 'user/message' && event.seq > lastTurnEnd)?.data).toMatchObject({
        message: { content: [{ type: 'text', text: id === first ? 'try A' : 'try B' }] },
      });
    }
    expect((await host.observe(first)).cwd).toBe('/tmp/base');
    expect((await host.observe(second)).cwd).toBe('/tmp/b');
    expect((await host.observe(second)).events.findLast((event) => event.type === 'session/config')?.data).toEqual({
      cwd: '/tmp/b',
      tools: ['read_file'],
    });
    model.answer();
    model.answer();
    await Promise.all([host.idle(first), host.idle(second)]);
    expect((await host.observe(base)).events).toEqual(observation.events);
  });

  it('forks exactly at atSeq, and refuses a seq outside the baseline (422 INVALID_CUT) creating nothing', async () => {
    const model = createGatedModel([{ text: 'base answer' }]);
    const { host } = setup(model);
    const base = await baseline(host, model, 'base');
    const before = (await host.list()).length;
    const bad = await call(host, 'POST', `/api/sessions/${base}/peers`, { atSeq: 999, peers: [{ prompt: 'x' }, { prompt: 'y' }] });
    expect(bad.status).toBe(422);
    expect(bad.body!.error.code).toBe('INVALID_CUT');
    expect(await host.list()).toHaveLength(before);

    const exact = await call(host, 'POST', `/api/sessions/${base}/peers`, { atSeq: 2, peers: [{ prompt: 'x' }, { prompt: 'y' }] });
    expect(exact.status).toBe(201);
    expect(exact.body!.cut).toBe(2);
    for (const peer of exact.body!.peers as { sessionId: string }[]) expect((await host.observe(peer.sessionId)).header.forkCut).toBe(2);
  });

  it('refuses a name a session carries, or two peers with one name (409 NAME_TAKEN), creating nothing', async () => {
    const model = createGatedModel([{ text: 'base answer' }]);
    const { host } = setup(model);
    const base = await baseline(host, model, 'base');
    await host.create({ title: 'taken' });
    const before = (await host.list()).length;
    const taken = await call(host, 'POST', `/api/sessions/${base}/peers`, { peers: [{ prompt: 'x' }, { prompt: 'y', title: 'taken' }] });
    expect(taken.status).toBe(409);
    expect(taken.body!.error).toMatchObject({ code: 'NAME_TAKEN', message: expect.stringContaining("'taken'") });
    const twice = await call(host, 'POST', `/api/sessions/${base}/peers`, {
      peers: [
        { prompt: 'x', title: 'same' },
        { prompt: 'y', title: 'same' },
      ],
    });
    expect(twice.status).toBe(409);
    expect(twice.body!.error.message).toContain('another peer');
    expect(await host.list()).toHaveLength(before);
  });

  it('answers 400 for no peers and 404 for an unknown baseline', async () => {
    const model = createGatedModel([]);
    const { host } = setup(model);
    const empty = await call(host, 'POST', '/api/sessions/nobody/peers', { peers: [] });
    expect(empty.status).toBe(400);
    const missing = await call(host, 'POST', '/api/sessions/nobody/peers', { peers: [{ prompt: 'x' }] });
    expect(missing.status).toBe(404);
    expect(missing.body!.error.code).toBe('SESSION_NOT_FOUND');
  });
});

/**
 * A host over a memory store whose `fork` calls are counted while they run (each waits one macrotask,
 * so overlapping calls are seen); the fork numbered `failAt` (1-based) fails instead.
 */
function setupCountingForks(
  model: GatedModel,
  failAt?: number,
): { host: Host; forks: { running: number; most: number; calls: number; queuedWhileForking: number } } {
  const inner = createMemoryStore();
  const forks = { running: 0, most: 0, calls: 0, queuedWhileForking: 0 };
  const children: Session[] = [];
  /** Prompts already queued on the children forked so far (seen while another fork runs). */
  const queuedSoFar = (): number =>
    children.filter((child) => child.events.some((event) => event.type === 'input/queued' && event.seq > (child.header.forkCut ?? -1)))
      .length;
  const store: SessionStore = {
    ...inner,
    fork: async (source, options) => {
      const call = ++forks.calls;
      forks.running++;
      forks.most = Math.max(forks.most, forks.running);
      try {
        forks.queuedWhileForking = Math.max(forks.queuedWhileForking, queuedSoFar());
        await new Promise((resolve) => setImmediate(resolve));
        forks.queuedWhileForking = Math.max(forks.queuedWhileForking, queuedSoFar());
        if (call === failAt) throw new Error('disk gone');
        const child = await inner.fork(source, options);
        children.push(child);
        return child;
      } finally {
        forks.running--;
      }
    },
  };
  const host = createHost({ store, model });
  cleanups.push(async () => {
    await host.close();
    await inner.close();
  });
  return { host, forks };
}

describe('host.peers', () => {
  it('forks every peer at once, each at the cut the rule selects on the one observation', async () => {
    const model = createGatedModel([{ text: 'base answer' }]);
    const { host, forks } = setupCountingForks(model);
    const base = await baseline(host, model, 'base');
    const result = await host.peers(base, { peers: [{ prompt: 'a' }, { prompt: 'b' }, { prompt: 'c' }, { prompt: 'd' }] });
    expect(forks).toMatchObject({ calls: 4, most: 4 });
    expect(result.peers.map((peer) => peer.title)).toEqual(['base-1', 'base-2', 'base-3', 'base-4']);
    for (const peer of result.peers) expect((await host.observe(peer.sessionId)).header.forkCut).toBe(result.cut);
    await model.requested(5);
    for (const _ of result.peers) model.answer();
    const turns = await Promise.all(result.peers.map((peer) => host.turnResult(peer.sessionId, peer.inputId)));
    expect(turns.map((turn) => turn.isError)).toEqual([false, false, false, false]);
  });

  it('queues no peer prompt while a sibling is being forked: every prompt once every fork settled', async () => {
    const model = createGatedModel([{ text: 'base answer' }]);
    const { host, forks } = setupCountingForks(model);
    const base = await baseline(host, model, 'base');
    const result = await host.peers(base, { peers: [{ prompt: 'a' }, { prompt: 'b' }, { prompt: 'c' }] });
    expect(forks).toMatchObject({ calls: 3, queuedWhileForking: 0 });
    for (const peer of result.peers) {
      const child = await host.observe(peer.sessionId);
      expect(child.events.filter((event) => event.type === 'input/queued' && event.seq > (child.header.forkCut ?? -1))).toHaveLength(1);
    }
    await model.requested(4);
    for (const _ of result.peers) model.answer();
    await Promise.all(result.peers.map((peer) => host.turnResult(peer.sessionId, peer.inputId)));
  });

  it('a peer fork that fails rejects the call once its siblings settled, which stay forked with their prompts queued', async () => {
    const model = createGatedModel([{ text: 'base answer' }]);
    const { host } = setupCountingForks(model, 2);
    const base = await baseline(host, model, 'base');
    const before = new Set((await host.list()).map((item) => item.id));
    await expect(host.peers(base, { peers: [{ prompt: 'a' }, { prompt: 'b' }, { prompt: 'c' }] })).rejects.toThrow('disk gone');
    const forked = (await host.list()).filter((item) => !before.has(item.id));
    expect(forked.map((item) => item.title).sort()).toEqual(['base-1', 'base-3']);
    await model.requested(3);
    model.answer();
    model.answer();
    for (const item of forked) {
      await host.idle(item.id);
      const child = await host.observe(item.id);
      expect(child.events.some((event) => event.type === 'input/queued' && event.seq > (child.header.forkCut ?? -1))).toBe(true);
    }
  });
});

describe('defaultPeerNames', () => {
  it('numbers after the baseline name, skipping names already taken', () => {
    expect(defaultPeerNames('base', new Set(), 2)).toEqual(['base-1', 'base-2']);
    expect(defaultPeerNames('base', new Set(['base-1', 'base-3']), 3)).toEqual(['base-2', 'base-4', 'base-5']);
  });
});
