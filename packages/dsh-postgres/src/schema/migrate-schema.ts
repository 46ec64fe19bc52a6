/**
 * The tables of a dsh store in one PostgreSQL schema, created and migrated on open. Migrations run in
 * one transaction under a transaction-level advisory lock keyed by the schema name, so any number of
 * hosts may open the same database at once: one applies the missing steps, the others wait and find
 * them applied. `schema_migrations` records each applied step.
 */
import type { PoolClient } from 'pg';

/** One migration step: its version and the statements that bring the schema from the previous one. */
type Migration = { version: number; statements: (schema: string) => string[] };

const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    statements: (s) => [
      // A segment holds the events of seq >= base_count it was written with; below that its events are
      // those of `base` (recursively). Rows below a segment's written end are never changed, so a fork
      // child refers to its parent's segment instead of copying its prefix.
      `CREATE TABLE ${s}.segments (
         id bigserial PRIMARY KEY,
         base bigint REFERENCES ${s}.segments (id),
         base_count integer NOT NULL DEFAULT 0 CHECK (base_count >= 0)
       )`,
      `CREATE INDEX segments_base ON ${s}.segments (base) WHERE base IS NOT NULL`,
      `CREATE TABLE ${s}.events (
         segment bigint NOT NULL,
         seq integer NOT NULL,
         body text NOT NULL,
         PRIMARY KEY (segment, seq)
       )`,
      // One row per session: its header line, current segment, next seq, and the single-writer lease
      // (holder + a generation that every append is conditional on: the fencing token).
      `CREATE TABLE ${s}.sessions (
         id text PRIMARY KEY CHECK (id ~ '^[A-Za-z0-9_-]{1,128}$'),
         segment bigint NOT NULL REFERENCES ${s}.segments (id),
         header text NOT NULL,
         next_seq integer NOT NULL CHECK (next_seq >= 0),
         stamp bigint NOT NULL DEFAULT 0,
         created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
         updated_at timestamptz NOT NULL DEFAULT clock_timestamp(),
         generation bigint NOT NULL DEFAULT 0,
         holder_host text,
         holder_pid integer,
         holder_since bigint,
         lease_expires timestamptz
       )`,
      `CREATE INDEX sessions_segment ON ${s}.sessions (segment)`,
    ],
  },
  {
    version: 2,
    statements: (s) => [
      // A fork's Idempotency-Key (its header's forkRequest.key), unique: two hosts forking under one
      // key at once create one child; the other's insert fails and it answers with the first child.
      `ALTER TABLE ${s}.sessions ADD COLUMN fork_key text`,
      // Children stored before this step: the oldest per key keeps it.
      `UPDATE ${s}.sessions t SET fork_key = k.key
         FROM (SELECT DISTINCT ON (key) id, key
                 FROM (SELECT id, created_at, header::jsonb -> 'forkRequest' ->> 'key' AS key FROM ${s}.sessions) h
                WHERE key IS NOT NULL ORDER BY key, created_at, id) k
        WHERE t.id = k.id`,
      `CREATE UNIQUE INDEX sessions_fork_key ON ${s}.sessions (fork_key) WHERE fork_key IS NOT NULL`,
    ],
  },
  {
    version: 3,
    statements: (s) => [
      // The writer's seal on an event row: hashtextextended(body, segment) — the line, bound to its
      // segment — set by dsh-postgres's own inserts,
      // which only store events a Session (or the codec) validated. A reader trusts a row as validated
      // only while its body still matches the seal (read-stored-log.ts); rows stored before this step,
      // or inserted or changed by anything else, carry none or a stale one and are validated in full.
      `ALTER TABLE ${s}.events ADD COLUMN checksum bigint`,
    ],
  },
  {
    version: 4,
    statements: (s) => [
      // Event rows up to a page stay inline and uncompressed: with the default target (~2 kB) every
      // larger line was pglz-compressed on insert (in the append statement, so before the commit
      // that a flush waits for) and decompressed on every read. Longer rows are compressed and moved
      // out of line as before. Applies to rows written from now on; stored rows are left as they are.
      `ALTER TABLE ${s}.events SET (toast_tuple_target = 8160)`,
    ],
  },
  {
    version: 5,
    statements: (s) => [
      // The event type of the rows a summary needs (titles, configs, turn starts and ends), NULL for
      // every other row, set by dsh-postgres's inserts from the event they store; indexed, so `list()`
      // reads a session's summary without reading its other rows (read-summary-rows.ts). No rewrite:
      // the column is nullable, and rows stored before this step keep NULL. Building the index scans
      // the table once under a lock that holds writes back; an operator with a large table may create
      // the column and the index (CONCURRENTLY) before upgrading, and this step then finds them.
      `ALTER TABLE ${s}.events ADD COLUMN IF NOT EXISTS landmark text`,
      `CREATE INDEX IF NOT EXISTS events_landmarks ON ${s}.events (segment, seq) INCLUDE (landmark) WHERE landmark IS NOT NULL`,
      // Whether every row of a segment was stored with its landmark set: segments created before this
      // step are not (their summaries are read from every row), every segment created after it is.
      `ALTER TABLE ${s}.segments ADD COLUMN landmarks boolean NOT NULL DEFAULT false`,
      `ALTER TABLE ${s}.segments ALTER COLUMN landmarks SET DEFAULT true`,
    ],
  },
  {
    version: 6,
    statements: (s) => [
      // The holder's process identity beside its pid (start time, PID namespace, boot id): a pid is
      // checked only for a holder of this host id that recorded this process's namespace and boot
      // (lease-holder.ts). A lease taken before this step has none and lapses only by expiry.
      `ALTER TABLE ${s}.sessions ADD COLUMN holder_start text, ADD COLUMN holder_pid_namespace text, ADD COLUMN holder_boot_id text`,
      // How the current generation was taken from a holder that had not released it (expired, or
      // found gone), kept past release: a writer that lost its lease is told why (lease-errors.ts).
      `ALTER TABLE ${s}.sessions ADD COLUMN taken_over jsonb`,
    ],
  },
  {
    version: 7,
    statements: (s) => [
      // The latest landmark of one type before a seq, as one backward index range (a fork's window,
      // read-fork-window.ts): `events_landmarks` has the type only as an included column, so such a
      // lookup visited every landmark row of the segment. Built like step 5's index (an operator with a
      // large table may create it CONCURRENTLY before upgrading; this step then finds it).
      `CREATE INDEX IF NOT EXISTS events_landmark_types ON ${s}.events (segment, landmark, seq) WHERE landmark IS NOT NULL`,
    ],
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS.length;

/**
 * Creates the schema and applies every missing migration, atomically, under an advisory lock.
 * Refuses a database migrated by a newer dsh-postgres. Returns the version the schema is at.
 */
export async function migrateSchema(client: PoolClient, schemaName: string, quoted: string, target = SCHEMA_VERSION): Promise<number> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [`dsh-postgres:${schemaName}`]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoted}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoted}.schema_migrations (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
    );
    const { rows } = await client.query<{ version: number | null }>(`SELECT max(version) AS version FROM ${quoted}.schema_migrations`);
    const current = rows[0]?.version ?? 0;
    if (current > SCHEMA_VERSION) {
      throw new Error(
        `schema ${schemaName} is at version ${String(current)}, written by a newer dsh-postgres (this one knows up to ${String(SCHEMA_VERSION)}) — upgrade`,
      );
    }
    for (const migration of MIGRATIONS) {
      // `target` below the latest only builds a database as an older dsh-postgres left it (tests).
      if (migration.version <= current || migration.version > target) continue;
      for (const statement of migration.statements(quoted)) await client.query(statement);
      await client.query(`INSERT INTO ${quoted}.schema_migrations (version) VALUES ($1)`, [migration.version]);
    }
    await client.query('COMMIT');
    return Math.max(current, target);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
