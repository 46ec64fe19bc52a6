import { describe, expect, it } from 'vitest';
import { encodeHeader, serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import pg from 'pg';
import { postgresTestUrl } from '@dsh/test-utils';
import { testSchemas } from '../__fixtures__/test-schemas.js';
import { migrateSchema } from './migrate-schema.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

/** Brings a fresh schema up to migration `step` only, as an older dsh-postgres left it; the step it reached. */
async function migrateTo(pool: pg.Pool, schema: string, step: number): Promise<number> {
  const client = await pool.connect();
  try {
    return await migrateSchema(client, schema, `"${schema}"`, step);
  } finally {
    client.release();
  }
}

describe.skipIf(url === undefined)('schema step 2 on a database an older dsh-postgres wrote', () => {
  const made = testSchemas(connectionString);
  const { admin } = made;
  const schema = made.schema('fork_key_backfill');
  const q = `"${schema}"`;

  /** Stores one session as schema version 1 did: a segment (on `base`), its event rows, its row. */
  const storeV1 = async (header: SessionHeader, events: SessionEvent[], createdAt: string, base?: string) => {
    const segment = await admin.query<{ id: string }>(`INSERT INTO ${q}.segments (base, base_count) VALUES ($1, $2) RETURNING id`, [
      base ?? null,
      base === undefined ? 0 : header.inheritedEventCount,
    ]);
    const id = (segment.rows[0] as { id: string }).id;
    for (const event of events)
      await admin.query(`INSERT INTO ${q}.events (segment, seq, body) VALUES ($1, $2, $3)`, [id, event.seq, serializeEvent(event)]);
    await admin.query(`INSERT INTO ${q}.sessions (id, segment, header, next_seq, created_at) VALUES ($1, $2, $3, $4, $5)`, [
      header.id,
      id,
      encodeHeader(header),
      header.inheritedEventCount + events.length,
      createdAt,
    ]);
    return id;
  };

  it('gives a key stored twice to its oldest child, keeps the other readable, and refuses a third under the key', async () => {
    expect(await migrateTo(admin, schema, 1)).toBe(1);
    const root: SessionHeader = { format: 'dsh-session', version: 7, id: 'parent', createdAt: 1, inheritedEventCount: 0 };
    const base = await storeV1(root, [{ seq: 0, type: 'session/title', time: 1, data: { title: 'root' } }], '2026-01-01T00:00:00Z');
    const child = (id: string, key: string): SessionHeader => ({
      ...root,
      id,
      createdAt: 2,
      parentSession: 'parent',
      forkCut: 0,
      inheritedEventCount: 1,
      forkRequest: { key, digest: `digest-of-${id}` },
    });
    const marker: SessionEvent[] = [{ seq: 1, type: 'session/end-seed', time: 1, data: { inherited: true } }];
    // Two hosts of the old version raced under one key (nothing unique then) and both stored a child.
    await storeV1(child('newer', 'same-key'), marker, '2026-01-03T00:00:00Z', base);
    await storeV1(child('older', 'same-key'), marker, '2026-01-02T00:00:00Z', base);
    await storeV1(child('other', 'other-key'), marker, '2026-01-04T00:00:00Z', base);

    const store = await openPostgresStore({ connectionString, schema });
    try {
      expect((await store.findForkChild?.('same-key'))?.id).toBe('older');
      expect((await store.findForkChild?.('other-key'))?.id).toBe('other');
      // The child that lost the key is unchanged and readable.
      expect((await store.observe('newer')).events.map((event) => event.type)).toEqual(['session/title', 'session/end-seed']);
      expect((await store.list()).map((summary) => summary.id).sort()).toEqual(['newer', 'older', 'other', 'parent']);
      await expect(store.fork('parent', { atSeq: 0, forkRequest: { key: 'same-key', digest: 'digest-of-a-third' } })).rejects.toMatchObject(
        { code: 'SESSION_EXISTS' },
      );
      const fresh = await store.fork('parent', { atSeq: 0, forkRequest: { key: 'new-key', digest: 'd' } });
      await fresh.close();
      expect((await store.findForkChild?.('new-key'))?.id).toBe(fresh.id);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(url === undefined)('schema step 5 on a database an older dsh-postgres wrote', () => {
  const made = testSchemas(connectionString);
  const { admin } = made;
  const schema = made.schema('landmarks_step');
  const q = `"${schema}"`;

  it('lists sessions stored before it by reading them whole, and those written after it by their landmarks; a child of an old parent reads whole', async () => {
    expect(await migrateTo(admin, schema, 4)).toBe(4);
    // A session as step 4 stored it: sealed rows, no landmark column yet.
    const header: SessionHeader = { format: 'dsh-session', version: 7, id: 'old', createdAt: 1, inheritedEventCount: 0 };
    const events: SessionEvent[] = [
      { seq: 0, type: 'session/title', time: 1, data: { title: 'before step 5' } },
      { seq: 1, type: 'turn/start', time: 2, data: { turn: 1 } },
    ];
    const segment = (await admin.query<{ id: string }>(`INSERT INTO ${q}.segments DEFAULT VALUES RETURNING id`)).rows[0]!.id;
    for (const event of events) {
      await admin.query(`INSERT INTO ${q}.events (segment, seq, body, checksum) VALUES ($1, $2, $3, hashtextextended($3, $1))`, [
        segment,
        event.seq,
        serializeEvent(event),
      ]);
    }
    await admin.query(`INSERT INTO ${q}.sessions (id, segment, header, next_seq) VALUES ('old', $1, $2, 2)`, [
      segment,
      encodeHeader(header),
    ]);

    const store = await openPostgresStore({ connectionString, schema });
    try {
      const { rows } = await admin.query<{ id: string; landmarks: boolean }>(`SELECT id::text, landmarks FROM ${q}.segments`);
      expect(rows).toEqual([{ id: segment, landmarks: false }]);
      const fresh = await store.create({ id: 'new', title: 'after step 5' });
      fresh.append('turn/start', { turn: 1 });
      await fresh.close();
      await (await store.fork('old', { atSeq: 0, id: 'old-kid', title: 'kid' })).close();
      const landmarks = await admin.query<{ landmark: string | null }>(
        `SELECT e.landmark FROM ${q}.events e JOIN ${q}.sessions s ON s.segment = e.segment WHERE s.id = 'new' ORDER BY e.seq`,
      );
      expect(landmarks.rows.map((row) => row.landmark)).toEqual(['session/title', null, 'turn/start']);
      const summaries = new Map((await store.list()).map((summary) => [summary.id, summary]));
      expect(summaries.get('old')).toMatchObject({ title: 'before step 5', needsRepair: true, lastSeq: 1 });
      expect(summaries.get('new')).toMatchObject({ title: 'after step 5', needsRepair: true, lastSeq: 2 });
      expect(summaries.get('old-kid')).toMatchObject({ title: 'kid', needsRepair: false, parentSession: 'old' });
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(url === undefined)('schema step 5 after an operator built its column and index beforehand', () => {
  const made = testSchemas(connectionString);
  const { admin } = made;
  const schema = made.schema('landmarks_pre');
  const q = `"${schema}"`;

  it('finds the column and the index made CONCURRENTLY at step 4 and applies the rest', async () => {
    expect(await migrateTo(admin, schema, 4)).toBe(4);
    await admin.query(`ALTER TABLE ${q}.events ADD COLUMN IF NOT EXISTS landmark text`);
    await admin.query(
      `CREATE INDEX CONCURRENTLY events_landmarks ON ${q}.events (segment, seq) INCLUDE (landmark) WHERE landmark IS NOT NULL`,
    );
    const store = await openPostgresStore({ connectionString, schema });
    try {
      await (await store.create({ id: 'after', title: 'step 5' })).close();
      expect((await store.list()).map((summary) => summary.title)).toEqual(['step 5']);
      const { rows } = await admin.query<{ version: number }>(`SELECT version FROM ${q}.schema_migrations ORDER BY version`);
      expect(rows.map((row) => row.version)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    } finally {
      await store.close();
    }
  });
});

describe.skipIf(url === undefined)('schema step 6 on a database an older dsh-postgres wrote', () => {
  const made = testSchemas(connectionString);
  const { admin } = made;
  const schema = made.schema('holder_identity_step');
  const q = `"${schema}"`;

  it('a lease an older holder of this host id took (no namespace or boot recorded) is not judged by its pid; once expired it is taken and recorded whole', async () => {
    expect(await migrateTo(admin, schema, 5)).toBe(5);
    const old = await openPostgresStore({ connectionString, schema, hostId: 'same-host' });
    // Build the session with this version's statements, then leave the row as step 5 would: an
    // older dsh-postgres holding it under a pid that names no process here.
    await (await old.create({ id: 'held' })).close();
    await old.close();
    await admin.query(`DELETE FROM ${q}.schema_migrations WHERE version >= 6`);
    await admin.query(
      `ALTER TABLE ${q}.sessions DROP COLUMN holder_start, DROP COLUMN holder_pid_namespace, DROP COLUMN holder_boot_id, DROP COLUMN taken_over`,
    );
    await admin.query(
      `UPDATE ${q}.sessions SET holder_host = 'same-host', holder_pid = ${String(2 ** 22 + 1)}, holder_since = 1, lease_expires = clock_timestamp() + interval '1 hour'`,
    );

    const store = await openPostgresStore({ connectionString, schema, hostId: 'same-host' });
    try {
      await expect(store.open('held')).rejects.toMatchObject({ code: 'SESSION_BUSY' });
      await admin.query(`UPDATE ${q}.sessions SET lease_expires = clock_timestamp() - interval '1 second'`);
      const session = await store.open('held');
      const { rows } = await admin.query<{
        holder_pid: number;
        holder_pid_namespace: string | null;
        taken_over: { reason: string; holderPid: number };
      }>(`SELECT holder_pid, holder_pid_namespace, taken_over FROM ${q}.sessions`);
      expect(rows[0]).toMatchObject({ holder_pid: process.pid, taken_over: { reason: 'expired', holderPid: 2 ** 22 + 1 } });
      if (process.platform === 'linux') expect(rows[0]?.holder_pid_namespace).toMatch(/^pid:\[\d+\]$/);
      await session.close();
    } finally {
      await store.close();
    }
  });
});
