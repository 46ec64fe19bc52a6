/**
 * What a describe block of this package's tests makes on the real server — fresh schemas, and the
 * stores, pools and proxies on them — closed and dropped once the block is done; and the settings a
 * test reads a schema's rows with directly, as the store would.
 */
import pg from 'pg';
import { afterAll } from 'vitest';
import { uniqueSchemaName } from '@dsh/test-utils';
import { OWN_POOL_SETTINGS } from '../own-pool-settings.js';
import type { PostgresSettings } from '../postgres-settings.js';
import { channelOf, quoteSchema } from '../schema/schema-name.js';

export type TestSchemas = {
  /**
   * A pool of its own for the test's direct queries and reads, with JIT off as the store's own pool
   * (a chain read's estimate passes the JIT threshold: compiling it took ~0.5 s a read, on CPU).
   */
  admin: pg.Pool;
  /** A fresh schema name, dropped after the block. */
  schema(prefix: string): string;
  /** Closes (or ends) `thing` after the block, before the schemas are dropped. */
  keep<T extends { close(): Promise<unknown> } | { end(): Promise<unknown> }>(thing: T): T;
  /** `sql` on the admin pool with each `S.` naming the schema. */
  query(schema: string, sql: string, values?: unknown[]): Promise<pg.QueryResult>;
};

/** Registers the block's cleanup (call it inside `describe`). */
export function testSchemas(connectionString: string): TestSchemas {
  const admin = new pg.Pool({ connectionString, max: 2, options: OWN_POOL_SETTINGS.options });
  const schemas: string[] = [];
  const closers: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    await Promise.allSettled(closers.map((close) => close()));
    for (const schema of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });
  return {
    admin,
    schema(prefix) {
      const schema = uniqueSchemaName(prefix);
      schemas.push(schema);
      return schema;
    },
    keep(thing) {
      closers.push(() => ('close' in thing ? thing.close() : thing.end()));
      return thing;
    },
    query: (schema, sql, values) => admin.query(sql.replaceAll('S.', `"${schema}".`), values),
  };
}

/** The settings a store on `schema` reads with, on `pool` (`extra`: the test's own knobs). */
export function readerSettings(pool: pg.Pool, schema: string, extra: Partial<PostgresSettings> = {}): PostgresSettings {
  return {
    pool,
    schemaName: schema,
    schema: quoteSchema(schema),
    target: 'test',
    leaseMs: 10_000,
    hostId: 'raw',
    channel: channelOf(schema),
    ...extra,
  };
}
