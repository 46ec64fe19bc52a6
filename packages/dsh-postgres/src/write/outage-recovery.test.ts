// SPEC §27: a live session recovers when storage does. While the database is unreachable its appends
// fail (typed, retried with a backoff); once it is back they are written without anyone flushing, the
// lease is still this writer's, and the session goes on. Only a lease lost meanwhile stops it.
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { isTransientStorageError, type SessionStore } from 'dsh-session';
import { postgresTestUrl } from '@dsh/test-utils';
import { startCuttingProxy, type CuttingProxy } from '../__fixtures__/cutting-proxy.js';
import { testSchemas } from '../__fixtures__/test-schemas.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('a live session across a database outage', () => {
  const made = testSchemas(connectionString);

  async function fixture(prefix: string, leaseMs: number): Promise<{ store: SessionStore; proxy: CuttingProxy; name: string }> {
    const name = made.schema(prefix);
    const proxy = await startCuttingProxy(connectionString);
    const store = await openPostgresStore({ connectionString: proxy.via(connectionString), schema: name, hostId: 'outage', leaseMs });
    made.keep(store);
    made.keep(proxy);
    return { store, proxy, name };
  }

  async function storedCount(name: string, id: string): Promise<number> {
    const { rows } = await made.query(name, `SELECT next_seq FROM S.sessions WHERE id = $1`, [id]);
    return (rows[0] as { next_seq: number }).next_seq;
  }

  it('writes the events appended during the outage once the database is back, without another flush, and keeps its lease', async () => {
    const { store, proxy, name } = await fixture('outage', 60_000);
    const session = await store.create({ id: 'through' });
    session.append('session/title', { title: 'before' });
    await session.flush();
    proxy.outage();
    session.append('session/title', { title: 'during' });
    const failure = await session.flush().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isTransientStorageError(failure)).toBe(true);
    proxy.restore();
    // Nobody flushes: the session's own retries write them.
    for (let waited = 0; (await storedCount(name, 'through')) < session.events.length; waited += 20) {
      if (waited > 20_000) expect.fail('the events appended during the outage are still not stored 20 s after it');
      await sleep(20);
    }
    expect((await store.inspect('through')).events).toEqual(session.events);
    session.append('session/title', { title: 'after' });
    await session.flush();
    await session.close();
    expect((await store.inspect('through')).events.map((event) => event.type).at(-1)).toBe('session/title');
  });

  it('stops on a lease taken over during the outage: the next write is SESSION_BUSY, and it is never retried', async () => {
    const { store, proxy, name } = await fixture('outage_lost', 300);
    const session = await store.create({ id: 'taken' });
    await session.flush();
    proxy.outage();
    session.append('session/title', { title: 'never stored' });
    await expect(session.flush()).rejects.toSatisfy(isTransientStorageError);
    // Another host takes the lapsed lease (straight to the server) while this one cannot reach it.
    await sleep(400);
    const other = await openPostgresStore({ connectionString, schema: name, hostId: 'other', leaseMs: 300 });
    made.keep(other);
    const taken = await other.open('taken');
    const storedBefore = await storedCount(name, 'taken');
    proxy.restore();
    // A connection the outage broke may fail one more attempt; the first answer from the server says the lease is gone.
    let refusal: unknown;
    for (let attempt = 0; attempt < 50 && (refusal === undefined || isTransientStorageError(refusal)); attempt += 1) {
      refusal = await session.flush().then(
        () => undefined,
        (error: unknown) => error,
      );
      if (isTransientStorageError(refusal)) await sleep(20);
    }
    expect(refusal).toMatchObject({ code: 'SESSION_BUSY' });
    await sleep(200);
    expect(await storedCount(name, 'taken')).toBe(storedBefore);
    await expect(session.close()).rejects.toMatchObject({ code: 'SESSION_BUSY' });
    await taken.close();
  });
});
