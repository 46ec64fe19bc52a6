/**
 * SPEC §14 "idempotency keys and names live in the database, so every host agrees on them": two
 * hosts, each over its own store (own pool) on one schema, resolve and list the same names after
 * either of them renames, forks or adds a clashing name, and honour each other's fork idempotency keys.
 */
import { createHost, type Host } from 'dsh-host';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

const url = postgresTestUrl();
const connectionString = url ?? '';
const schema = uniqueSchemaName('names_hosts');
const stores: SessionStore[] = [];
const hosts: Host[] = [];

async function openHost(hostId: string): Promise<Host> {
  const store = await openPostgresStore({ connectionString, schema, hostId });
  stores.push(store);
  const host = createHost({ store });
  hosts.push(host);
  return host;
}

/** What `host` says of `ref`: the id it resolves to, or the error code. */
const resolution = (host: Host, ref: string): Promise<string> =>
  host.resolve(ref).catch((error: unknown) => `error ${String((error as { code?: string }).code)}`);

const titles = async (host: Host) => Object.fromEntries((await host.list()).map((item) => [item.id, item.title]));

describe.skipIf(url === undefined)('§14 names across hosts', () => {
  afterAll(async () => {
    await Promise.allSettled(hosts.map((host) => host.close()));
    await Promise.allSettled(stores.map((store) => store.close()));
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('every host resolves and lists the same names after a rename, a fork and a clash on another host', { timeout: 60_000 }, async () => {
    const [a, b] = await Promise.all([openHost('host-a'), openHost('host-b')]);
    const { sessionId } = await a.create({ title: 'alpha' });
    expect(await resolution(b, 'alpha')).toBe(sessionId);

    // Renamed on A while A holds it live: B sees the new name at once, and the old one is gone.
    await a.open(sessionId);
    await a.rename(sessionId, 'beta');
    expect(await resolution(b, 'beta')).toBe(sessionId);
    expect(await resolution(b, 'alpha')).toBe('error SESSION_NOT_FOUND');
    expect((await titles(b))[sessionId]).toBe('beta');

    // A fork made on B inherits the name; both hosts still resolve it to the session that set it.
    const child = await b.fork('beta', { atSeq: (await b.observe(sessionId)).events.length - 1 });
    expect(await resolution(a, 'beta')).toBe(sessionId);
    expect(await resolution(b, 'beta')).toBe(sessionId);

    // B names another session the same: now both hosts refuse the name as ambiguous.
    const { sessionId: other } = await b.create({ title: 'beta' });
    expect(await resolution(a, 'beta')).toBe('error NAME_AMBIGUOUS');
    expect(await resolution(b, 'beta')).toBe('error NAME_AMBIGUOUS');

    expect(await titles(a)).toEqual(await titles(b));
    expect(await titles(a)).toEqual({ [sessionId]: 'beta', [child.sessionId]: 'beta', [other]: 'beta' });
  });

  it(
    'a fork Idempotency-Key sent to host A and then host B returns the same child; another request under it is 422 IDEMPOTENCY_MISMATCH on B',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await Promise.all([openHost('host-a'), openHost('host-b')]);
      const { sessionId } = await a.create({ title: 'idempotent source' });
      await a.rename(sessionId, 'idempotent source, renamed');
      const forkOver = (host: Host, body: object, key: string) =>
        host.fetch(
          new Request(`http://127.0.0.1/api/sessions/${sessionId}/fork`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'idempotency-key': key },
            body: JSON.stringify(body),
          }),
        );
      const first = await forkOver(a, { atSeq: 1, title: 'branch' }, 'key-shared-by-hosts');
      expect(first.status).toBe(201);
      const child = ((await first.json()) as { sessionId: string }).sessionId;
      const again = await forkOver(b, { atSeq: 1, title: 'branch' }, 'key-shared-by-hosts');
      expect(again.status).toBe(201);
      expect(((await again.json()) as { sessionId: string }).sessionId).toBe(child);
      const other = await forkOver(b, { atSeq: 0, title: 'branch' }, 'key-shared-by-hosts');
      expect(other.status).toBe(422);
      expect(((await other.json()) as { error: { code: string } }).error.code).toBe('IDEMPOTENCY_MISMATCH');
      // One child only, whichever host is asked.
      const children = (await b.list()).filter((item) => item.parentSession === sessionId);
      expect(children.map((item) => item.id)).toEqual([child]);
    },
  );

  it(
    'a host finds the child of an Idempotency-Key through the store’s key index, without listing every session',
    { timeout: 60_000 },
    async () => {
      const a = await openHost('host-a');
      const { sessionId } = await a.create({ title: 'indexed source' });
      const first = await a.fork(sessionId, { atSeq: 0, idempotencyKey: 'key-by-index' });
      // A restarted host: nothing remembered in memory; its store counts the listings it is asked for.
      const store = await openPostgresStore({ connectionString, schema, hostId: 'host-c' });
      stores.push(store);
      let listings = 0;
      const counted: SessionStore = { ...store, list: () => ((listings += 1), store.list()) };
      const c = createHost({ store: counted });
      hosts.push(c);
      expect('findForkChild' in store).toBe(true);
      expect(await c.fork(sessionId, { atSeq: 0, idempotencyKey: 'key-by-index' })).toEqual(first);
      await expect(c.fork(sessionId, { atSeq: 1, idempotencyKey: 'key-by-index' })).rejects.toMatchObject({ code: 'IDEMPOTENCY_MISMATCH' });
      expect(listings).toBe(0);
    },
  );

  it(
    'two hosts forking under one Idempotency-Key at the same moment create one child and both return it',
    { timeout: 60_000 },
    async () => {
      const [a, b] = await Promise.all([openHost('host-a'), openHost('host-b')]);
      const { sessionId } = await a.create({ title: 'raced source' });
      await a.rename(sessionId, 'raced source, renamed');
      for (const round of [1, 2, 3]) {
        const key = `raced-key-${String(round)}`;
        const [fromA, fromB] = await Promise.all([
          a.fork(sessionId, { atSeq: 1, idempotencyKey: key }),
          b.fork(sessionId, { atSeq: 1, idempotencyKey: key }),
        ]);
        expect(fromB.sessionId).toBe(fromA.sessionId);
      }
      const children = (await a.list()).filter((item) => item.parentSession === sessionId);
      expect(children).toHaveLength(3);
    },
  );
});
