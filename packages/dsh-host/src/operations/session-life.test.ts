// SPEC §27: live sessions are bounded and come back. At most maxLiveSessions are live (one more while all
// are busy is TOO_MANY_SESSIONS), an idle one is closed after idleSessionMs (lease and descriptor released)
// and reopened on its next request, and a session whose agent stopped (its lease was lost) is released by
// the host, so the next request reopens it instead of answering AGENT_CLOSED forever.
import { readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { createMemoryStore, openSessionStore } from 'dsh-session';

const createMemoryStoreForOptions = createMemoryStore;
import { makeTempDir } from '@dsh/test-utils';
import { createHost, HostError, type Host } from 'dsh-host';
import { createGatedModel } from '../__fixtures__/gated-model.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function jsonlDir(): Promise<string> {
  const dir = await makeTempDir();
  cleanups.push(() => dir.remove());
  return dir.path;
}

/** Makes the newest lease record of `id` name a process that does not exist, as a mistaken verdict would. */
async function markHolderDead(dir: string, id: string): Promise<void> {
  const folder = join(dir, '.leases', id);
  const generations = (await readdir(folder))
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .sort((a, b) => a - b);
  const newest = join(folder, String(generations.at(-1)));
  const record = JSON.parse(await readFile(newest, 'utf8')) as Record<string, unknown>;
  await writeFile(newest, JSON.stringify({ ...record, pid: 2 ** 22 + 1, start: '1' }));
}

describe('a live session that lost its lease', () => {
  it('is released by the host: the next request after the other writer left reopens it and its input runs', async () => {
    const dir = await jsonlDir();
    const store = await openSessionStore({ dir });
    const host = createHost({ store, model: createScriptedModel([{ text: 'one' }, { text: 'two' }, { text: 'three' }]) });
    cleanups.push(async () => {
      await host.close().catch(() => undefined);
      await store.close();
    });
    const { sessionId } = await host.create({ id: 'taken' });
    const first = await host.send(sessionId, 'hello');
    expect((await host.turnResult(sessionId, first.inputId)).result).toBe('one');

    // Another writer takes the session over (its holder judged dead), writes, and leaves.
    await markHolderDead(dir, sessionId);
    const other = await openSessionStore({ dir });
    const taken = await other.open(sessionId);
    taken.append('session/title', { title: 'written elsewhere' });
    await taken.flush();
    const lost = await host.send(sessionId, 'refused: the lease is lost');
    await expect(host.turnResult(sessionId, lost.inputId)).rejects.toMatchObject({ code: 'AGENT_CLOSED' });
    // While the other writer holds it, reopening is refused naming the holder.
    await expect(host.send(sessionId, 'still held')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await taken.close();
    await other.close();

    const again = await host.send(sessionId, 'after the other writer left');
    expect((await host.turnResult(sessionId, again.inputId)).result).toBe('two');
    const { events } = await host.observe(sessionId);
    expect(events.some((event) => event.type === 'session/title')).toBe(true);
    expect(HostError.is(await host.idle(sessionId).catch((error: unknown) => error))).toBe(false);
  });
});

/** How many of this process's descriptors are open on the file at `path` (by inode: a log is created under a temp name). */
async function descriptorsOn(path: string): Promise<number> {
  const file = await stat(path);
  let count = 0;
  for (const fd of await readdir('/proc/self/fd')) {
    const open = await stat(join('/proc/self/fd', fd)).catch(() => undefined);
    if (open !== undefined && open.ino === file.ino && open.dev === file.dev) count += 1;
  }
  return count;
}

/** `open()`, again while it is refused SESSION_BUSY (a lease being given back), for at most 20 s. */
async function openWhenFree<T>(open: () => Promise<T>): Promise<T> {
  for (let waited = 0; ; waited += 10) {
    try {
      return await open();
    } catch (error) {
      if ((error as { code?: string }).code !== 'SESSION_BUSY' || waited > 20_000) throw error;
      await sleep(10);
    }
  }
}

async function isLive(host: Host, id: string): Promise<boolean> {
  return (await host.list()).some((session) => session.id === id && session.live);
}

describe('bounded live sessions', () => {
  it('refuses one more session while every slot runs a turn (TOO_MANY_SESSIONS, Retry-After, nothing created), then evicts an idle one', async () => {
    const dir = await jsonlDir();
    const store = await openSessionStore({ dir });
    const model = createGatedModel([]);
    const host = createHost({ store, model, maxLiveSessions: 2 });
    cleanups.push(async () => {
      await host.close().catch(() => undefined);
      await store.close();
    });
    const a = await host.create({ id: 'busy-a' });
    const b = await host.create({ id: 'busy-b' });
    const inputA = await host.send(a.sessionId, 'work a');
    const inputB = await host.send(b.sessionId, 'work b');
    await model.requested(2);

    await expect(host.create({ id: 'one-more' })).rejects.toMatchObject({ code: 'TOO_MANY_SESSIONS' });
    const refused = await host.fetch(
      new Request('http://127.0.0.1/api/sessions', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBe('5');
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('TOO_MANY_SESSIONS');
    await expect(host.fork(a.sessionId, { atSeq: 0 })).rejects.toMatchObject({ code: 'TOO_MANY_SESSIONS' });
    expect((await host.list()).map((session) => session.id).sort()).toEqual(['busy-a', 'busy-b']);

    // One turn ends (whichever request came first): its session is idle, so the next one takes its slot and it goes cold.
    const turnA = host.turnResult(a.sessionId, inputA.inputId).then(() => a.sessionId);
    const turnB = host.turnResult(b.sessionId, inputB.inputId).then(() => b.sessionId);
    model.answer();
    const idle = await Promise.race([turnA, turnB]);
    await host.create({ id: 'one-more' });
    expect(await isLive(host, idle)).toBe(false);
    expect(await descriptorsOn(join(dir, `${idle}.jsonl`))).toBe(0);
    // Asked again, it comes back (evicting the idle newcomer) and answers.
    const again = await host.send(idle, 'again');
    await model.requested(3);
    model.answer();
    model.answer();
    expect((await host.turnResult(idle, again.inputId)).turn).toBe(2);
    await Promise.all([turnA, turnB]);
    expect(await isLive(host, 'one-more')).toBe(false);
  });

  it('refuses peers beyond the free slots before forking any (TOO_MANY_SESSIONS), and forks them when idle sessions can make room', async () => {
    const dir = await jsonlDir();
    const store = await openSessionStore({ dir });
    const model = createGatedModel([]);
    const host = createHost({ store, model, maxLiveSessions: 3 });
    cleanups.push(async () => {
      await host.close().catch(() => undefined);
      await store.close();
    });
    const busy = await host.create({ id: 'busy' });
    const running = await host.send(busy.sessionId, 'keep running');
    const { sessionId: baseline } = await host.create({ id: 'baseline' });
    await model.requested(1);
    const before = (await host.list()).map((session) => session.id).sort();
    const three = { peers: [{ prompt: 'one' }, { prompt: 'two' }, { prompt: 'three' }] };
    await expect(host.peers(baseline, three)).rejects.toMatchObject({ code: 'TOO_MANY_SESSIONS' });
    expect((await host.list()).map((session) => session.id).sort()).toEqual(before);
    // Two fit: the idle baseline makes room for one of them.
    const { peers } = await host.peers(baseline, { peers: [{ prompt: 'one' }, { prompt: 'two' }] });
    expect(peers).toHaveLength(2);
    expect(await isLive(host, baseline)).toBe(false);
    await model.requested(3);
    for (let answer = 0; answer < 3; answer += 1) model.answer();
    await host.turnResult(busy.sessionId, running.inputId);
    for (const peer of peers) await host.turnResult(peer.sessionId, peer.inputId);
  });

  it('closes a session idle for idleSessionMs (lease and descriptor released: another process may open it), and reopens it on its next request', async () => {
    const dir = await jsonlDir();
    const store = await openSessionStore({ dir });
    const model = createGatedModel([{ text: 'one' }, { text: 'two' }]);
    const host = createHost({ store, model, idleSessionMs: 50 });
    cleanups.push(async () => {
      await host.close().catch(() => undefined);
      await store.close();
    });
    const { sessionId } = await host.create({ id: 'idle' });
    const first = await host.send(sessionId, 'hello');
    // While its turn runs it is never closed: it holds its log's descriptor.
    await model.requested(1);
    const path = join(dir, 'idle.jsonl');
    expect(await descriptorsOn(path)).toBe(1);
    model.answer();
    expect((await host.turnResult(sessionId, first.inputId)).result).toBe('one');
    // Closed within 1.25 × idleSessionMs, its descriptor and lease given back right after; 20 s is
    // only the point where the test gives up.
    for (let waited = 0; (await isLive(host, sessionId)) || (await descriptorsOn(path)) > 0; waited += 10) {
      if (waited > 20_000) expect.fail('the idle session still holds its log 20 s later');
      await sleep(10);
    }

    // Its lease is free: another store takes it, writes, and while it holds it this host is refused.
    const other = await openSessionStore({ dir });
    const held = await openWhenFree(() => other.open(sessionId));
    held.append('session/title', { title: 'written elsewhere' });
    await expect(host.send(sessionId, 'while held')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await held.close();
    await other.close();

    const second = await host.send(sessionId, 'back again');
    await model.requested(2);
    model.answer();
    expect((await host.turnResult(sessionId, second.inputId)).result).toBe('two');
    const { events } = await host.observe(sessionId);
    expect(events.filter((event) => event.type === 'session/title').at(-1)?.data).toEqual({ title: 'written elsewhere' });
  });

  it('refuses bounds that are not positive integers (INVALID_OPTION)', () => {
    const store = createMemoryStoreForOptions();
    expect(() => createHost({ store, maxLiveSessions: 0 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
    expect(() => createHost({ store, idleSessionMs: 1.5 })).toThrow(expect.objectContaining({ code: 'INVALID_OPTION' }));
  });
});
