import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { serializeEvent, type SessionEvent } from 'dsh-codec';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { AppendBatcher } from './append-batcher.js';
import { quoteSchema } from '../schema/schema-name.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('group commit on PostgreSQL', () => {
  const admin = new pg.Pool({ connectionString, max: 2 });
  const schema = uniqueSchemaName('batcher');
  const stores: SessionStore[] = [];
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('appends of many sessions in one statement land in their own sessions, each row under the seq its line carries', async () => {
    const store = await openPostgresStore({ connectionString, schema, hostId: 'batcher' });
    stores.push(store);
    const sessions = await Promise.all(['one', 'two', 'three'].map((id) => store.create({ id })));
    for (let round = 0; round < 5; round++) {
      // Appends of one tick, across sessions and with several events each, share a batch.
      sessions.forEach((session, index) => {
        for (let event = 0; event <= index; event++)
          session.append('session/title', { title: `${session.id} ${String(round)}.${String(event)}` });
      });
      await Promise.all(sessions.map((session) => session.flush()));
    }
    for (const session of sessions) expect((await store.inspect(session.id)).events).toEqual(session.events);
    const { rows } = await admin.query<{ mismatched: number; total: number }>(
      `SELECT count(*) FILTER (WHERE (body::jsonb ->> 'seq')::integer <> seq OR right(body, 1) <> E'\\n')::integer AS mismatched, count(*)::integer AS total FROM "${schema}".events`,
    );
    expect(rows[0]).toEqual({ mismatched: 0, total: 3 + 5 * (1 + 2 + 3) });
    // Each row carries its landmark (schema step 5): the titles do, the markers do not.
    const landmarks = await admin.query<{ wrong: number }>(
      `SELECT count(*)::integer AS wrong FROM "${schema}".events WHERE landmark IS DISTINCT FROM CASE WHEN body::jsonb ->> 'type' = 'session/title' THEN 'session/title' END`,
    );
    expect(landmarks.rows[0]).toEqual({ wrong: 0 });
    await Promise.all(sessions.map((session) => session.close()));
  });

  it("one session's batch stores each line whole, with its '\\n', whatever control characters or separators its data holds", async () => {
    const store = await openPostgresStore({ connectionString, schema, hostId: 'batcher' });
    stores.push(store);
    const session = await store.create({ id: 'lines' });
    // Raw '\n', the batch's line separator (RS), other control characters, non-BMP text, a 5 kB title.
    const titles = ['a\nb', 'x\u001ey', '\u0000\u001f\r\t', 'snow ☃ 𝄞', 'long '.repeat(1_000), ''];
    for (const title of titles) session.append('session/title', { title });
    await session.flush();
    expect((await store.inspect('lines')).events).toEqual(session.events);
    const { rows } = await admin.query<{ seq: number; body: string }>(
      `SELECT e.seq, e.body FROM "${schema}".events e JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = 'lines' ORDER BY e.seq`,
    );
    expect(rows.map((row) => row.seq)).toEqual(session.events.map((event) => event.seq));
    expect(rows.map((row) => row.body)).toEqual(session.events.map((event) => serializeEvent(event)));
    // A separator inside a line never shifts the landmarks against the lines.
    const landmarks = await admin.query<{ landmark: string | null }>(
      `SELECT e.landmark FROM "${schema}".events e JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = 'lines' ORDER BY e.seq`,
    );
    expect(landmarks.rows.map((row) => row.landmark)).toEqual(
      session.events.map((event) => (event.type === 'session/title' ? 'session/title' : null)),
    );
    await session.close();
  });

  it('rows up to a page are stored inline without compression (schema step 4); longer ones are still compressed', async () => {
    const store = await openPostgresStore({ connectionString, schema, hostId: 'batcher' });
    stores.push(store);
    const session = await store.create({ id: 'sizes' });
    session.append('session/title', { title: 'a'.repeat(5_000) });
    session.append('session/title', { title: 'b'.repeat(20_000) });
    await session.flush();
    const { rows } = await admin.query<{ length: number; compression: string | null }>(
      `SELECT length(e.body) AS length, pg_column_compression(e.body) AS compression FROM "${schema}".events e
         JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = 'sizes' AND length(e.body) > 4000 ORDER BY e.seq`,
    );
    expect(rows.map((row) => row.compression === null)).toEqual([true, false]);
    await session.close();
  });

  it('a batch connection ended between bursts costs at most a failed flush, which a retry commits; no acknowledged event is lost', async () => {
    const store = await openPostgresStore({ connectionString, schema, hostId: 'batcher' });
    stores.push(store);
    const session = await store.create({ id: 'ended' });
    let failures = 0;
    // A pool may hand out a connection the server has just ended once; the Session keeps the events pending.
    const flush = (): Promise<void> =>
      session.flush().catch((error: unknown) => {
        expect(error).toMatchObject({ code: 'WRITE_FAILED' });
        failures += 1;
        return session.flush();
      });
    for (let round = 0; round < 3; round++) {
      await Promise.all(
        Array.from({ length: 8 }, async (_, writer) => {
          for (let event = 0; event < 5; event++) {
            session.append('session/title', { title: `${String(round)}.${String(writer)}.${String(event)}` });
            await flush();
          }
        }),
      );
      // End the connection the batches ran on, back in the pool now (as a server restart or a proxy would).
      const { rows } = await admin.query<{ ended: boolean }>(
        `SELECT pg_terminate_backend(pid) AS ended FROM pg_stat_activity WHERE query LIKE '%pg_notify(%' AND query LIKE $1 AND pid <> pg_backend_pid()`,
        [`%"${schema}".events%`],
      );
      // This store's batch connection, and those of the other stores of this file on the same schema.
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.every((row) => row.ended)).toBe(true);
    }
    session.append('session/title', { title: 'after' });
    await flush();
    expect(failures).toBeLessThanOrEqual(3 * 8);
    expect((await store.inspect('ended')).events).toEqual(session.events);
    await session.close();
  });

  it('batches that follow each other share one connection, which goes back to the pool once none follows', async () => {
    const pool = new pg.Pool({ connectionString, max: 10 });
    const store = await openPostgresStore({ pool, schema, hostId: 'batcher' });
    const session = await store.create({ id: 'held' });
    session.append('session/title', { title: 'created' });
    await session.flush();
    // Each committed batch notifies once; each checkout from the pool is an 'acquire'.
    let batches = 0;
    let checkouts = 0;
    const listener = await pool.connect();
    listener.on('notification', () => {
      batches += 1;
    });
    await listener.query(`LISTEN "dsh_${schema}"`);
    pool.on('acquire', () => {
      checkouts += 1;
    });
    await Promise.all(
      Array.from({ length: 4 }, async (_, writer) => {
        for (let event = 0; event < 10; event++) {
          session.append('session/title', { title: `${String(writer)}.${String(event)}` });
          await session.flush();
        }
      }),
    );
    await new Promise((resolve) => setImmediate(resolve));
    // Only the listener is checked out: the store holds no connection while idle.
    expect(pool.totalCount - pool.idleCount).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(batches).toBeGreaterThanOrEqual(10);
    // One checkout for the whole burst (a lease renewal falling inside it may add one), not one per batch.
    expect(checkouts).toBeLessThanOrEqual(2);
    listener.release();
    await session.close();
    await store.close();
    await pool.end();
  });

  it('a batch whose seqs do not run on from the expected next seq is refused as CORRUPT before anything is sent', async () => {
    const batcher = new AppendBatcher({
      pool: admin,
      schema: quoteSchema(schema),
      schemaName: schema,
      leaseMs: 10_000,
      channel: `dsh_${schema}`,
    });
    const event = (seq: number): SessionEvent => ({ seq, type: 'session/title', time: 1, data: { title: 't' } });
    await expect(batcher.submit('one', '1', 21, [event(21), event(23)])).rejects.toMatchObject({
      code: 'CORRUPT',
      message: expect.stringMatching(/from 21 .*seq 23 at position 1/) as unknown,
    });
    const { rows } = await admin.query<{ n: number }>(
      `SELECT count(*)::integer AS n FROM "${schema}".events e JOIN "${schema}".sessions s ON s.segment = e.segment WHERE s.id = 'one' AND e.seq >= 21`,
    );
    expect(rows[0]?.n).toBe(0);
  });
});
