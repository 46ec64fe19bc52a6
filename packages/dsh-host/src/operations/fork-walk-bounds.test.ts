/**
 * The bounds of one fork over HTTP on a JSONL store (docs/fork-walk.md): `exists` asked at most twice
 * (the source's resolution, the atomic create), the title checked once (at the HTTP edge), and the
 * child's log created by the store itself, not by a first write through the Session's group commit.
 * Counted by spies at the seams, not timed: every `fileExists` of a log file (the JSONL backend's only way
 * to ask `exists`, in `exists()` and in `create`; a listing stats logs too, and is not an `exists`), every call of the title rule's functions, and every
 * batch a `GroupCommit` writes. A peers request checks each requested title once too.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createScriptedModel } from 'dsh-agent';
import { checkTitle, isPrintableTitle, openSessionStore, printableTitle } from 'dsh-session';
import { makeTempDir } from '@dsh/test-utils';
import { createHost, type Host } from 'dsh-host';
import { call } from '../__fixtures__/http-call.js';

// Every path the JSONL backend's existence check is asked about, recorded where it is made.
const existsPaths = vi.hoisted(() => ({ paths: [] as string[] }));
vi.mock('../../../dsh-session/src/jsonl/jsonl-paths.ts', async (importOriginal) => {
  const real = await importOriginal<{ fileExists: (path: string) => Promise<boolean> }>();
  return {
    ...real,
    fileExists: (path: string) => {
      existsPaths.paths.push(path);
      return real.fileExists(path);
    },
  };
});

// The title rule, counted wherever it runs: the HTTP edge (`printableTitle`, `isPrintableTitle`) and the store (`checkTitle`).
vi.mock('../../../dsh-session/src/store/check-title.ts', async (importOriginal) => {
  const real = await importOriginal<typeof import('dsh-session')>();
  return {
    ...real,
    checkTitle: vi.fn(real.checkTitle),
    isPrintableTitle: vi.fn(real.isPrintableTitle),
    printableTitle: vi.fn(real.printableTitle),
  };
});

// Every batch any Session's group commit writes (its `writeFrom`), counted.
const groupWrites = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../dsh-session/src/session/group-commit.ts', async (importOriginal) => {
  type WriteFrom = (from: number, to: number) => Promise<void>;
  const real = await importOriginal<{ GroupCommit: new (length: () => number, writeFrom: WriteFrom, durable: number) => object }>();
  class CountedGroupCommit extends real.GroupCommit {
    constructor(length: () => number, writeFrom: WriteFrom, durable: number) {
      super(
        length,
        (from, to) => {
          groupWrites.count++;
          return writeFrom(from, to);
        },
        durable,
      );
    }
  }
  return { ...real, GroupCommit: CountedGroupCommit };
});

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function jsonlHost(): Promise<{ host: Host; dir: string }> {
  const dir = await makeTempDir();
  const store = await openSessionStore({ dir: dir.path });
  const host = createHost({ store, model: createScriptedModel([{ text: 'answer 1' }, { text: 'answer 2' }]) });
  cleanups.push(async () => {
    await host.close();
    await store.close();
    await dir.remove();
  });
  return { host, dir: dir.path };
}

async function sessionWithTurn(host: Host): Promise<string> {
  const id = (await call(host, 'POST', '/api/sessions', {})).body!.sessionId as string;
  await call(host, 'POST', `/api/sessions/${id}/messages`, { text: 'hello' });
  await host.idle(id);
  return id;
}

/** How many times `run` asked the JSONL backend whether a log under `dir` exists. */
async function existsAsked(dir: string, run: () => Promise<unknown>): Promise<number> {
  existsPaths.paths.length = 0;
  await run();
  return existsPaths.paths.filter((path) => path.startsWith(dir) && path.endsWith('.jsonl')).length;
}

/** How many times `run` applied the title rule (at the edge or in the store). */
async function titleChecks(run: () => Promise<unknown>): Promise<number> {
  const spies = [vi.mocked(checkTitle), vi.mocked(isPrintableTitle), vi.mocked(printableTitle)];
  for (const spy of spies) spy.mockClear();
  await run();
  return spies.reduce((sum, spy) => sum + spy.mock.calls.length, 0);
}

describe('a fork over HTTP on a JSONL store', () => {
  it('asks exists at most twice: once to resolve a stored source, once in the atomic create', async () => {
    const { host, dir } = await jsonlHost();
    const source = await sessionWithTurn(host);
    await host.release(source);
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    expect(await existsAsked(dir, async () => (reply = await call(host, 'POST', `/api/sessions/${source}/fork`, { title: 'child' })))).toBe(
      2,
    );
    expect(reply).toMatchObject({ status: 201, body: { parentSession: source } });
    // A live source resolves from memory: only the create asks.
    const live = await sessionWithTurn(host);
    expect(await existsAsked(dir, () => call(host, 'POST', `/api/sessions/${live}/fork`, {}))).toBe(1);
    // With an Idempotency-Key the counts are the same (the key is looked up in list(), not by exists).
    expect(
      await existsAsked(dir, () =>
        host.fetch(new Request(`http://dsh.test/api/sessions/${source}/fork`, { method: 'POST', headers: { 'idempotency-key': 'k-1' } })),
      ),
    ).toBe(2);
  });

  it('validates the title once, at the edge, and the child carries it', async () => {
    const { host } = await jsonlHost();
    const source = await sessionWithTurn(host);
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    expect(
      await titleChecks(async () => (reply = await call(host, 'POST', `/api/sessions/${source}/fork`, { title: '  forked child ' }))),
    ).toBe(1);
    expect(reply?.status).toBe(201);
    expect((await host.observe(reply!.body!.sessionId as string)).title).toBe('forked child');
  });

  it('still refuses a title with control characters with the same 400 body as the other routes', async () => {
    const { host } = await jsonlHost();
    const source = await sessionWithTurn(host);
    const forked = await call(host, 'POST', `/api/sessions/${source}/fork`, { title: 'a\u001b[2Jb' });
    const created = await call(host, 'POST', '/api/sessions', { title: 'a\u001b[2Jb' });
    expect(forked.status).toBe(400);
    expect(forked.body).toEqual(created.body);
    expect(forked.body).toMatchObject({
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('title: expected printable text') as unknown },
    });
    // A title that did not come through the edge is checked by the store.
    await expect(host.fork(source, { title: 'a\u0007' })).rejects.toMatchObject({ code: 'INVALID_TITLE' });
  });

  it('creates the child in one atomic create, without a write through its group commit', async () => {
    const { host, dir } = await jsonlHost();
    const source = await sessionWithTurn(host);
    await host.release(source);
    groupWrites.count = 0;
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    // The create is the only exists after the source's: the child's whole seed (marker, closers, title) in one create.
    expect(await existsAsked(dir, async () => (reply = await call(host, 'POST', `/api/sessions/${source}/fork`, { title: 'child' })))).toBe(
      2,
    );
    expect(reply?.status).toBe(201);
    expect(groupWrites.count).toBe(0);
    const child = reply!.body!.sessionId as string;
    expect((await host.observe(child)).title).toBe('child');
    // The child's writer is the one its create returned: its next appends go through the group commit.
    await call(host, 'POST', `/api/sessions/${child}/messages`, { text: 'hello again' });
    await host.idle(child);
    expect(groupWrites.count).toBeGreaterThan(0);
  });
});

describe('a peers request over HTTP', () => {
  it('validates each requested title once, at the edge, and each peer carries its own', async () => {
    const { host } = await jsonlHost();
    const source = await sessionWithTurn(host);
    let reply: Awaited<ReturnType<typeof call>> | undefined;
    const peers = [
      { prompt: 'try A', title: ' alpha ' },
      { prompt: 'try B', title: 'beta' },
    ];
    expect(await titleChecks(async () => (reply = await call(host, 'POST', `/api/sessions/${source}/peers`, { peers })))).toBe(2);
    expect(reply?.status).toBe(201);
    const children = reply!.body!.peers as { sessionId: string; title: string }[];
    expect(children.map((peer) => peer.title)).toEqual(['alpha', 'beta']);
    for (const peer of children) expect((await host.observe(peer.sessionId)).title).toBe(peer.title);
  });

  it('still refuses a control character: 400 at the edge, INVALID_TITLE from host.peers, nothing forked', async () => {
    const { host } = await jsonlHost();
    const source = await sessionWithTurn(host);
    const before = (await host.list()).length;
    const refused = await call(host, 'POST', `/api/sessions/${source}/peers`, { peers: [{ prompt: 'x', title: 'a\u001b[2Jb' }] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({
      error: { code: 'BAD_REQUEST', message: expect.stringContaining('title: expected printable text') as unknown },
    });
    await expect(host.peers(source, { peers: [{ prompt: 'x', title: 'a\u0007' }] })).rejects.toMatchObject({ code: 'INVALID_TITLE' });
    expect(await host.list()).toHaveLength(before);
  });
});
