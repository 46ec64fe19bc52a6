import { createServer } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';

const url = postgresTestUrl();
// Only used inside the suites that skip without a server.
const connectionString = url ?? '';

/** A port on loopback nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => {
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => {
    server.close(() => {
      resolve();
    });
  });
  return port;
}

async function failure(action: Promise<unknown>): Promise<SessionError> {
  try {
    await action;
  } catch (error) {
    if (SessionError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a SessionError');
}

describe('openPostgresStore refuses clearly', () => {
  it('an unreachable server is STORAGE_ERROR naming its host and port, in one line without a stack', async () => {
    const port = await closedPort();
    const error = await failure(openPostgresStore({ connectionString: `postgres://dsh:secret@127.0.0.1:${String(port)}/nowhere` }));
    expect(error.code).toBe('STORAGE_ERROR');
    expect(error.message).toContain(`127.0.0.1:${String(port)}`);
    expect(error.message).toMatch(/connection refused/);
    expect(error.message).not.toContain('secret');
    expect(error.message).not.toMatch(/\n|\bat .*:\d+:\d+/);
  });

  it('an invalid schema name is refused before any connection', async () => {
    const error = await failure(openPostgresStore({ connectionString: 'postgres://127.0.0.1:1/x', schema: 'x"; DROP SCHEMA public; --' }));
    expect(error.code).toBe('STORAGE_ERROR');
    expect(error.message).toMatch(/Invalid PostgreSQL schema name: expected .* received/);
  });
});

describe.skipIf(url === undefined)('openPostgresStore on a real server', () => {
  const schemas: string[] = [];
  const admin = new pg.Pool({ connectionString, max: 2 });
  const schema = (prefix: string): string => {
    const name = uniqueSchemaName(prefix);
    schemas.push(name);
    return name;
  };
  afterAll(async () => {
    for (const name of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`);
    await admin.end();
  });

  it('a database that does not exist is STORAGE_ERROR naming host, port and the reason', async () => {
    const wrong = new URL(connectionString);
    wrong.pathname = '/no_such_database_here';
    const error = await failure(openPostgresStore({ connectionString: wrong.toString() }));
    expect(error.code).toBe('STORAGE_ERROR');
    expect(error.message).toContain(`${wrong.hostname}:${wrong.port || '5432'}`);
    expect(error.message).toMatch(/does not exist/);
  });

  it('many hosts opening one fresh database at once all succeed; the schema is migrated exactly once', async () => {
    const name = schema('migrate');
    const stores = await Promise.all(Array.from({ length: 6 }, () => openPostgresStore({ connectionString, schema: name })));
    const { rows } = await admin.query<{ version: number }>(`SELECT version FROM "${name}".schema_migrations ORDER BY version`);
    expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    const again = await openPostgresStore({ connectionString, schema: name });
    stores.push(again);
    await (await stores[0]!.create({ id: 'seen' })).close();
    expect((await again.list()).map((summary) => summary.id)).toEqual(['seen']);
    await Promise.all(stores.map((store) => store.close()));
  });

  it('a schema migrated by a newer dsh-postgres is refused with "upgrade"', async () => {
    const name = schema('newer');
    await (await openPostgresStore({ connectionString, schema: name })).close();
    await admin.query(`INSERT INTO "${name}".schema_migrations (version) VALUES (99)`);
    const error = await failure(openPostgresStore({ connectionString, schema: name }));
    expect(error.code).toBe('STORAGE_ERROR');
    expect(error.message).toMatch(/version 99.*upgrade/);
  });

  it('a fork stores no row of its inherited prefix: only the child-owned marker, closers and later events', async () => {
    const name = schema('nocopy');
    const store = await openPostgresStore({ connectionString, schema: name });
    const source = await store.create({ id: 'big' });
    for (let index = 0; index < 300; index++) source.append('session/title', { title: `t${String(index)}` });
    await source.close();
    const child = await store.fork('big', { atSeq: 250, id: 'kid' });
    child.append('session/title', { title: 'mine' });
    await child.close();
    const { rows } = await admin.query<{ seq: number }>(
      `SELECT e.seq FROM "${name}".events e JOIN "${name}".sessions s ON s.segment = e.segment WHERE s.id = 'kid' ORDER BY e.seq`,
    );
    expect(rows.map((row) => row.seq)).toEqual([251, 252]);
    expect((await store.inspect('kid')).events).toEqual([...buildForkSeed(source.events, 250), child.events[252]]);
    await store.close();
  });

  it('a fork of a live parent (held open by this store) refers to its segment too: no row of the durable prefix is copied', async () => {
    const name = schema('nocopy_live');
    const store = await openPostgresStore({ connectionString, schema: name });
    const source = await store.create({ id: 'big' });
    for (let index = 0; index < 300; index++) source.append('session/title', { title: `t${String(index)}` });
    await source.flush();
    const child = await store.fork('big', { atSeq: 250, id: 'kid' });
    await child.close();
    const { rows } = await admin.query<{ seq: number }>(
      `SELECT e.seq FROM "${name}".events e JOIN "${name}".sessions s ON s.segment = e.segment WHERE s.id = 'kid' ORDER BY e.seq`,
    );
    expect(rows.map((row) => row.seq)).toEqual([251]);
    expect((await store.inspect('kid')).events).toEqual(buildForkSeed(source.events, 250));
    await source.close();
    await store.close();
  });

  it('a session id is never sent to the server unless it is valid; queries are parameterized', async () => {
    const seen: unknown[] = [];
    class WatchedPool extends pg.Pool {
      override query(...args: unknown[]): never {
        seen.push(args[0], args[1]);
        return (super.query as (...a: unknown[]) => never)(...args);
      }
    }
    const pool = new WatchedPool({ connectionString, max: 4 });
    const store: SessionStore = await openPostgresStore({ pool, schema: schema('ids') });
    const evil = "x'); DROP TABLE sessions; --";
    for (const attempt of [store.open(evil), store.inspect(evil), store.create({ id: evil }), store.delete(evil)]) {
      expect((await failure(attempt)).code).toBe('INVALID_SESSION_ID');
    }
    await (await store.create({ id: 'fine' })).close();
    expect(JSON.stringify(seen)).not.toContain('DROP TABLE');
    expect(seen.some((entry) => Array.isArray(entry) && entry.includes('fine'))).toBe(true);
    expect(seen.filter((entry): entry is string => typeof entry === 'string').some((text) => text.includes("'fine'"))).toBe(false);
    await store.close();
    await pool.end();
  });
});

describe.skipIf(url === undefined)('a lease that cannot be released', () => {
  const schema = uniqueSchemaName('release_fails');
  afterAll(async () => {
    const admin = new pg.Pool({ connectionString, max: 1 });
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('fails close() with STORAGE_ERROR saying the lease lapses by itself, after every event was durable', async () => {
    const pool = new pg.Pool({ connectionString, max: 2 });
    pool.on('error', () => undefined);
    const store = await openPostgresStore({ pool, schema, leaseMs: 5_000 });
    const session = await store.create({ id: 'kept', title: 'durable' });
    await session.flush();
    // The database is gone from under the writer (its pool ended): only the lease release is left.
    await pool.end();
    const error = await session.close().then(
      () => undefined,
      (reason: unknown) => reason,
    );
    expect(SessionError.is(error) && error.code).toBe('STORAGE_ERROR');
    expect((error as Error).message).toMatch(/release the lease on session kept \(it lapses by itself within 5000 ms\)/);
    await store.close().catch(() => undefined);
    const reader = await openPostgresStore({ connectionString, schema });
    expect((await reader.observe('kept')).events.map((event) => event.type)).toEqual(['session/title', 'session/end-seed']);
    await reader.close();
  });
});
