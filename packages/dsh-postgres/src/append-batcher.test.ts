import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionEvent } from 'dsh-codec';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { AppendBatcher } from './append-batcher.js';
import { quoteSchema } from './schema-name.js';

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
        for (let event = 0; event <= index; event++) session.append('session/title', { title: `${session.id} ${String(round)}.${String(event)}` });
      });
      await Promise.all(sessions.map((session) => session.flush()));
    }
    for (const session of sessions) expect((await store.inspect(session.id)).events).toEqual(session.events);
    const { rows } = await admin.query<{ mismatched: number; total: number }>(
      `SELECT count(*) FILTER (WHERE (body::jsonb ->> 'seq')::integer <> seq OR right(body, 1) <> E'\\n')::integer AS mismatched, count(*)::integer AS total FROM "${schema}".events`,
    );
    expect(rows[0]).toEqual({ mismatched: 0, total: 3 + 5 * (1 + 2 + 3) });
    await Promise.all(sessions.map((session) => session.close()));
  });

  it('a batch whose seqs do not run on from the expected next seq is refused as CORRUPT before anything is sent', async () => {
    const batcher = new AppendBatcher({ pool: admin, schema: quoteSchema(schema), schemaName: schema, leaseMs: 10_000, channel: `dsh_${schema}` });
    const event = (seq: number): SessionEvent => ({ seq, type: 'session/title', time: 1, data: { title: 't' } });
    await expect(batcher.submit('one', '1', 21, [event(21), event(23)])).rejects.toMatchObject({ code: 'CORRUPT', message: expect.stringMatching(/from 21 .*seq 23 at position 1/) as unknown });
    const { rows } = await admin.query<{ n: number }>(`SELECT count(*)::integer AS n FROM "${schema}".events WHERE seq >= 21`);
    expect(rows[0]?.n).toBe(0);
  });
});
