import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import pg from 'pg';
import { postgresTestUrl } from '@dsh/test-utils';
import { channelOf } from './schema-name.js';
import { statementName } from './statement-name.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe('statement names', () => {
  it('fit the server’s 63-byte limit and differ for every schema and statement', () => {
    const schemas = ['dsh', 'a'.repeat(63), `${'a'.repeat(62)}b`];
    const names = schemas.flatMap((schema) =>
      ['sealed_read', 'chunked_read', 'summary', 'append_one'].map((key) => statementName(schema, key)),
    );
    for (const name of names) expect(Buffer.byteLength(name)).toBeLessThanOrEqual(63);
    expect(new Set(names.map((name) => name.slice(0, 63))).size).toBe(names.length);
  });

  it('the notification channel is dsh_<schema>, or a hash of a name too long for the server’s 63 bytes', () => {
    expect(channelOf('dsh')).toBe('dsh_dsh');
    expect(channelOf('a'.repeat(59))).toBe(`dsh_${'a'.repeat(59)}`);
    const long = [channelOf('a'.repeat(60)), channelOf('a'.repeat(63)), channelOf(`${'a'.repeat(62)}b`)];
    for (const channel of long) expect(Buffer.byteLength(channel)).toBeLessThanOrEqual(63);
    expect(new Set(long).size).toBe(3);
  });
});

describe.skipIf(url === undefined)('named statements on a pool two stores share', () => {
  const pool = new pg.Pool({ connectionString, max: 1, options: '-c jit=off' });
  // Two 63-character schema names alike but for their last character: names built from the schema
  // itself would be cut to the same 63 bytes and collide on the one connection.
  const schemas = [`${'d'.repeat(62)}1`, `${'d'.repeat(62)}2`];
  afterAll(async () => {
    for (const schema of schemas) await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await pool.end();
  });

  it('each store reads, lists and appends through its own statements and channel on the same connection', async () => {
    const stores = [];
    for (const schema of schemas) stores.push(await openPostgresStore({ pool, schema, hostId: schema.slice(-1) }));
    try {
      for (const [index, store] of stores.entries()) {
        const session = await store.create({ id: 'same-id', title: `store ${String(index)}` });
        session.append('session/title', { title: `again ${String(index)}` });
        await session.close();
      }
      for (const [index, store] of stores.entries()) {
        expect((await store.list()).map((summary) => summary.title)).toEqual([`again ${String(index)}`]);
        expect((await store.observe('same-id')).events.at(-1)?.data).toEqual({ title: `again ${String(index)}` });
        const reopened = await store.open('same-id');
        expect(reopened.title).toBe(`again ${String(index)}`);
        await reopened.close();
      }
    } finally {
      for (const store of stores) await store.close();
    }
  });
});
