import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { createMemoryStore, SessionError, type SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe('findForkChild is a capability of stores that index fork keys', () => {
  it('a memory store has none (callers scan list())', async () => {
    const store = createMemoryStore();
    expect('findForkChild' in store).toBe(false);
    await store.close();
  });
});

describe.skipIf(url === undefined)('findForkChild on PostgreSQL', () => {
  const admin = new pg.Pool({ connectionString, max: 1 });
  const schema = uniqueSchemaName('fork_key_lookup');
  const stores: SessionStore[] = [];
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  const open = async (hostId: string): Promise<SessionStore & Required<Pick<SessionStore, 'findForkChild'>>> => {
    const store = await openPostgresStore({ connectionString, schema, hostId });
    stores.push(store);
    if (store.findForkChild === undefined) throw new Error('expected the PostgreSQL store to look fork keys up');
    return store as SessionStore & Required<Pick<SessionStore, 'findForkChild'>>;
  };

  it('any host finds the child forked under a key, frozen; an unknown key or a deleted child is undefined', async () => {
    const [a, b] = [await open('a'), await open('b')];
    const parent = await a.create({ id: 'parent', title: 'source' });
    const child = await a.fork('parent', { atSeq: 0, id: 'child', forkRequest: { key: 'key-1', digest: 'digest-1' } });
    const header = await b.findForkChild('key-1');
    expect(header).toEqual(child.header);
    expect(Object.isFrozen(header) && Object.isFrozen(header?.forkRequest)).toBe(true);
    expect(await b.findForkChild('key-2')).toBeUndefined();
    await child.close();
    await b.delete('child');
    expect(await a.findForkChild('key-1')).toBeUndefined();
    await parent.close();
  });

  it('a key fork() would refuse is INVALID_FORK_REQUEST before any query; a corrupt stored header is CORRUPT naming the session', async () => {
    const store = await open('c');
    for (const key of ['', 'has space', 'x'.repeat(256)]) {
      await expect(store.findForkChild(key)).rejects.toMatchObject({ code: 'INVALID_FORK_REQUEST' });
    }
    const parent = await store.create({ id: 'p2' });
    await (await store.fork('p2', { atSeq: 0, id: 'c2', forkRequest: { key: 'key-3', digest: 'd' } })).close();
    await parent.close();
    await admin.query(
      `UPDATE "${schema}".sessions SET header = replace(header, '"inheritedEventCount":1', '"inheritedEventCount":"one"') WHERE id = 'c2'`,
    );
    const error: unknown = await store.findForkChild('key-3').catch((caught: unknown) => caught);
    expect(SessionError.is(error) && error.code).toBe('CORRUPT');
    expect((error as Error).message).toMatch(/session c2\b.*key-3/);
  });
});
