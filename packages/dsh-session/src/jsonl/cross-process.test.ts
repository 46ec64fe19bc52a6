import { createHash } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decodeJsonl, validate } from 'dsh-codec';
import { openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { killAllStoreProcesses, spawnStoreProcess } from '../__fixtures__/spawn-store-process.js';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

async function failure(promise: Promise<unknown>): Promise<SessionError> {
  try {
    await promise;
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

const digest = (session: Session, from: number, to: number) =>
  createHash('sha256')
    .update(JSON.stringify(session.events.slice(from, to + 1)))
    .digest('hex');

describe('one writer per session across processes', { timeout: 180_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await killAllStoreProcesses();
    await store.close();
    await dir.remove();
  });

  it('refuses a session another live process holds with SESSION_BUSY naming it; forking it works; a clean release frees it', async () => {
    const holder = spawnStoreProcess('hold', dir.path, 'shared');
    await holder.waitFor((message) => message.event === 'ready');
    const error = await failure(store.open('shared'));
    expect(error.code).toBe('SESSION_BUSY');
    expect(error.holder?.pid).toBe(holder.pid);
    expect(error.message).toContain(`pid ${holder.pid}`);
    expect(error.message).toMatch(/fork/);
    expect((await store.list()).find((summary) => summary.id === 'shared')).toMatchObject({ busy: true });
    expect((await failure(store.delete('shared'))).code).toBe('SESSION_BUSY');
    const child = await store.fork('shared', { atSeq: 1, id: 'side' });
    expect(child.header.parentSession).toBe('shared');
    await holder.stop();
    const session = await store.open('shared');
    expect(session.events.map((event) => event.type)).toEqual(['session/title', 'session/end-seed']);
  });

  it('takes over the lease of a holder that died (kill -9)', async () => {
    const holder = spawnStoreProcess('hold', dir.path, 'orphan');
    await holder.waitFor((message) => message.event === 'ready');
    await holder.kill9();
    expect((await store.list()).find((summary) => summary.id === 'orphan')).toMatchObject({ busy: false });
    const session = await store.open('orphan');
    expect(session.closed).toBe(false);
    // Now this process holds it: a new process is refused, naming this one.
    const racer = spawnStoreProcess('race', dir.path, 'orphan');
    expect(await racer.waitFor((message) => message.event !== undefined)).toMatchObject({ event: 'busy', holder: process.pid });
  });

  it('lets exactly one of several processes racing for a dead holder’s lease win', async () => {
    const holder = spawnStoreProcess('hold', dir.path, 'contested');
    await holder.waitFor((message) => message.event === 'ready');
    await holder.kill9();
    const racers = [1, 2, 3].map(() => spawnStoreProcess('race', dir.path, 'contested'));
    const results = await Promise.all(
      racers.map((racer) => racer.waitFor((message) => message.event === 'opened' || message.event === 'busy')),
    );
    const winners = results.filter((result) => result.event === 'opened');
    expect(winners).toHaveLength(1);
    for (const loser of results.filter((result) => result.event === 'busy')) expect(loser.holder).toBe(winners[0]!.pid);
    expect((await failure(store.open('contested'))).holder?.pid).toBe(winners[0]!.pid);
  });

  it('loses no acknowledged event when a writer is killed with -9 mid-append, round after round', async () => {
    const acknowledged: { from: number; to: number; digest: string }[] = [];
    for (let round = 0; round < 3; round += 1) {
      const writer = spawnStoreProcess('write', dir.path, 'durable');
      await writer.waitFor((message) => message.event === 'ready');
      const seen = writer.messages.length;
      await writer.waitFor((message) => writer.messages.indexOf(message) >= seen + 25 && message.event === 'durable');
      // Let it run on for a while so the kill lands at an arbitrary point of the write loop.
      await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 40)));
      await writer.kill9();
      for (const message of writer.messages) {
        if (message.event === 'durable') acknowledged.push(message as unknown as { from: number; to: number; digest: string });
      }
      const inspection = await store.inspect('durable');
      const last = acknowledged.at(-1)!;
      expect(inspection.events.length).toBeGreaterThan(last.to);
      const session = await store.open('durable');
      for (const batch of acknowledged)
        expect(digest(session, batch.from, batch.to), `events ${batch.from}–${batch.to}`).toBe(batch.digest);
      const decoded = decodeJsonl(await storedLogText(dir.path, 'durable'));
      expect(decoded.tornTail).toBeUndefined();
      expect(validate(7, { header: decoded.header, events: decoded.events })).toEqual([]);
      await session.close();
    }
    expect((await readdir(dir.path)).filter((name) => name.endsWith('.tmp'))).toEqual([]);
  });
});
