/**
 * SPEC §14 "names live in the database, so every host agrees on them": two hosts, each over its own
 * store (own pool) on one schema, resolve and list the same names after either of them renames,
 * forks or adds a clashing name.
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
const resolution = (host: Host, ref: string): Promise<string> => host.resolve(ref).catch((error: unknown) => `error ${String((error as { code?: string }).code)}`);

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
});
