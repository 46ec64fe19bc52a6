/** SPEC §8 contract points (and §11's JSONL store): one file per session, valid ids, one writer across processes. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CodecError, decodeJsonl } from 'dsh-codec';
import { openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { createHost } from 'dsh-host';
import { completedTurnRows, logRow, makeTempDir, type TempDir } from '@dsh/test-utils';
import { killHolders, spawnHolder } from './__fixtures__/spawn-holder.js';
import { appendAll, rejection } from './support.js';

let dir: TempDir;
let store: SessionStore;
beforeEach(async () => {
  dir = await makeTempDir();
  store = await openSessionStore({ dir: join(dir.path, 'store') });
});
afterEach(async () => {
  await killHolders();
  await store.close();
  await dir.remove();
});

const storeDir = () => join(dir.path, 'store');

describe('§8 JSONL store layout', () => {
  it("§11 openSessionStore keeps one file per session at <dir>/<id>.jsonl: V7 header on line 1, '\\n'-terminated lines", async () => {
    const session = await store.create({ id: 'alpha', title: 'A' });
    appendAll(session, completedTurnRows(1, ['a']));
    await session.flush();
    const text = await readFile(join(storeDir(), 'alpha.jsonl'), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    expect(JSON.parse(text.split('\n')[0]!)).toMatchObject({ format: 'dsh-session', version: 7, id: 'alpha' });
    const decoded = decodeJsonl(text);
    expect(decoded.events).toEqual(session.events);
    expect(decoded.header).toEqual(session.header);
    expect((await readdir(storeDir())).filter((name) => name.endsWith('.jsonl'))).toEqual(['alpha.jsonl']);
  });

  it('§11 flush resolves when every appended event is durable: another store instance reads them', async () => {
    const session = await store.create({ id: 'flushy' });
    appendAll(session, [logRow.title('one'), logRow.title('two')]);
    await session.flush();
    const other = await openSessionStore({ dir: storeDir() });
    try {
      expect((await other.inspect('flushy')).events).toEqual(session.events);
    } finally {
      await other.close();
    }
  });

  it('§8 session ids are validated ([A-Za-z0-9_-]{1,128}); nothing in an id reaches outside the store', async () => {
    const parent = await store.create({ id: 'ok_ID-1' });
    for (const id of ['../escape', 'a/b', '', 'x'.repeat(129), 'has space', '..', 'dot.jsonl']) {
      const error = await rejection(store.create({ id }));
      expect(SessionError.is(error), `${id}: ${String(error)}`).toBe(true);
      expect(SessionError.is(await rejection(store.fork('ok_ID-1', { atSeq: 0, id })))).toBe(true);
    }
    expect(SessionError.is(await rejection(store.open('../escape')))).toBe(true);
    expect(await readdir(dir.path)).toEqual(['store']);
    expect((await store.create({ id: 'x'.repeat(128) })).id).toHaveLength(128);
    expect(parent.id).toBe('ok_ID-1');
  });

  it('§11 delete removes the stored session; list reports lineage', async () => {
    const parent = await store.create({ id: 'p' });
    appendAll(parent, completedTurnRows(1));
    await store.fork('p', { atSeq: 2, id: 'c' });
    const summaries = await store.list();
    expect(summaries.find((entry) => entry.id === 'c')).toMatchObject({ parentSession: 'p', forkCut: 2, inheritedEventCount: 3 });
    expect(summaries.find((entry) => entry.id === 'p')).toMatchObject({ inheritedEventCount: 0 });
    const gone = await store.create({ id: 'gone' });
    await gone.close();
    await store.delete('gone');
    expect((await readdir(storeDir())).includes('gone.jsonl')).toBe(false);
    expect((await rejection(store.open('gone'))).code).toBe('SESSION_NOT_FOUND');
  });
});

describe('§8 unreadable stored logs', () => {
  it('§8 codec codes pass through as SessionError codes with the CodecError as cause; the file is left as it was', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    await mkdir(storeDir(), { recursive: true });
    const corrupt = `${JSON.stringify({ format: 'dsh-session', version: 4, id: 'broken', createdAt: 1, inheritedEventCount: 0 })}\n{"seq":0,"type":\n{"seq":1,"type":"session/title","time":1,"data":{"title":"x"}}\n`;
    const newer = `${JSON.stringify({ format: 'dsh-session', version: 8, id: 'future', createdAt: 1, inheritedEventCount: 0 })}\n`;
    await writeFile(join(storeDir(), 'broken.jsonl'), corrupt);
    await writeFile(join(storeDir(), 'future.jsonl'), newer);
    for (const [id, codes] of [
      ['broken', ['MALFORMED_JSON', 'CORRUPT']],
      ['future', ['UNSUPPORTED_VERSION']],
    ] as const) {
      for (const action of [() => store.open(id), () => store.inspect(id)]) {
        const error = await rejection(action);
        expect(SessionError.is(error), String(error)).toBe(true);
        expect(codes).toContain(error.code);
        expect(CodecError.is(error.cause)).toBe(true);
      }
    }
    expect(await readFile(join(storeDir(), 'broken.jsonl'), 'utf8')).toBe(corrupt);
    expect(await readFile(join(storeDir(), 'future.jsonl'), 'utf8')).toBe(newer);
  });
});

describe('§8 one writer per session across processes', { timeout: 120_000 }, () => {
  it('§8 opening a session another live process holds fails with SESSION_BUSY, naming the holder and suggesting a fork', async () => {
    const holder = await spawnHolder(storeDir(), 'shared');
    const error = await rejection(store.open('shared'));
    expect(SessionError.is(error)).toBe(true);
    expect(error.code).toBe('SESSION_BUSY');
    expect(error.message).toContain(String(holder.pid));
    expect(error.message).toMatch(/fork/i);
    // The suggested fork works while the holder runs.
    const child = await store.fork('shared', { atSeq: 0, id: 'side' });
    expect(child.header.parentSession).toBe('shared');
    await holder.stop();
    const session = await store.open('shared');
    expect(session.title).toBe('held');
  });

  it("§8 a crashed holder's lease is taken over", async () => {
    const holder = await spawnHolder(storeDir(), 'orphan');
    await holder.kill9();
    const session = await store.open('orphan');
    expect(session.id).toBe('orphan');
  });

  it('§10 the host answers 409 SESSION_BUSY when another process holds the session', async () => {
    await spawnHolder(storeDir(), 'held');
    const host = createHost({ store });
    try {
      const response = await host.fetch(
        new Request('http://dsh.test/api/sessions/held/messages', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text: 'hi' }),
        }),
      );
      expect(response.status).toBe(409);
      const body = (await response.json()) as { error: { code: string; message: string } };
      expect(Object.keys(body)).toEqual(['error']);
      expect(body.error.code).toBe('SESSION_BUSY');
      expect(typeof body.error.message).toBe('string');
    } finally {
      await host.close();
    }
  });
});
