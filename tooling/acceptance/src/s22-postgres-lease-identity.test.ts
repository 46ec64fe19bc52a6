/**
 * SPEC §22 "the PostgreSQL lease records the holder's pid namespace and boot id, as the JSONL lease
 * does; a holder in another pid namespace with the same host id is never taken for dead by a pid
 * check, and a writer that loses its lease is told the true reason". The holder's row is edited as a
 * holder elsewhere would have written it (the columns docs/storage.md names); the real-namespace run
 * is dsh-postgres's `acquire-lease.faults.test.ts`.
 */
import { readlinkSync } from 'node:fs';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError, type SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { afterAll, describe, expect, it } from 'vitest';

const url = postgresTestUrl();
const connectionString = url ?? '';
const schema = uniqueSchemaName('s22_lease');
const stores: SessionStore[] = [];
// No renewal runs while a test edits a row (renewals come every leaseMs / 3).
const LEASE_MS = 600_000;

async function openStore(): Promise<SessionStore> {
  const store = await openPostgresStore({ connectionString, schema, hostId: 'one-host-id', leaseMs: LEASE_MS });
  stores.push(store);
  return store;
}

async function sql(text: string): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    return await client.query(text.replaceAll('S.', `"${schema}".`));
  } finally {
    await client.end();
  }
}

describe.skipIf(url === undefined)('§22 the PostgreSQL lease and its holder', () => {
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  });

  it.runIf(process.platform === 'linux')('records the holder’s pid namespace and boot id', async () => {
    const store = await openStore();
    const session = await store.create({ id: 'recorded' });
    const { rows } = await sql(`SELECT holder_pid, holder_pid_namespace, holder_boot_id FROM S.sessions WHERE id = 'recorded'`);
    expect(rows[0]).toMatchObject({ holder_pid: process.pid, holder_pid_namespace: readlinkSync('/proc/self/ns/pid') });
    expect(rows[0]?.holder_boot_id).toMatch(/^[0-9a-f-]{36}$/);
    await session.close();
  });

  it('a holder in another pid namespace with the same host id is not taken for dead by its pid (no such pid here): SESSION_BUSY', async () => {
    const [holderStore, other] = [await openStore(), await openStore()];
    const holder = await holderStore.create({ id: 'elsewhere' });
    await sql(
      `UPDATE S.sessions SET holder_pid = ${String(2 ** 22 + 1)}, holder_pid_namespace = 'pid:[4026500001]' WHERE id = 'elsewhere'`,
    );
    const error = await other.open('elsewhere').then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(SessionError.is(error) && error.code).toBe('SESSION_BUSY');
    // The holder keeps writing.
    holder.append('session/title', { title: 'still mine' });
    await holder.flush();
  });

  it('a writer whose lease expired and was taken over is told so, naming the taker', async () => {
    const [holderStore, other] = [await openStore(), await openStore()];
    const holder = await holderStore.create({ id: 'expired' });
    await sql(`UPDATE S.sessions SET lease_expires = clock_timestamp() - interval '1 second' WHERE id = 'expired'`);
    const taker = await other.open('expired');
    holder.append('session/title', { title: 'too late' });
    const error = await holder.flush().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(SessionError.is(error) && error.code).toBe('SESSION_BUSY');
    expect((error as Error).message).toMatch(
      new RegExp(`taken over by host one-host-id pid ${String(process.pid)} at \\S+ after this holder's lease expired`),
    );
    expect((error as Error).message).not.toMatch(/silent/);
    await taker.close();
  });
});
