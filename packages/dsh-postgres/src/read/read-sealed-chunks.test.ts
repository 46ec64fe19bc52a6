import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeEvent } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import { postgresTestUrl } from '@dsh/test-utils';
import { readerSettings, testSchemas } from '../__fixtures__/test-schemas.js';
import { OWN_POOL_SETTINGS } from '../own-pool-settings.js';
import type { PostgresSettings } from '../postgres-settings.js';
import { readSealedChunks } from './read-sealed-chunks.js';
import { shapeOf } from '../__fixtures__/read-shape.js';
import { readStoredLog } from './read-stored-log.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('whole reads in chunks: a few hundred events per row, aggregated on the server', () => {
  const made = testSchemas(connectionString);
  // Bitmap scans only: rows come back in heap order, which is not seq order once a row moved to a later page.
  const bitmap = made.keep(new pg.Pool({ connectionString, max: 2, options: `${OWN_POOL_SETTINGS.options} -c enable_indexscan=off` }));

  async function fixture(prefix: string) {
    const name = made.schema(prefix);
    const store = made.keep(await openPostgresStore({ connectionString, schema: name, hostId: 'one' }));
    const settings = (readChunk?: { rows: number; bytes: number }, pool = made.admin): PostgresSettings =>
      readerSettings(pool, name, readChunk === undefined ? {} : { readChunk });
    const q = (sql: string): Promise<pg.QueryResult> => made.query(name, sql);
    return { store, settings, q };
  }

  /** A session of a marker and `count` titles, the title of seq `n` `pad` characters long when `pad(n)` says so. */
  async function titled(store: SessionStore, id: string, count: number, pad: (seq: number) => number = () => 2): Promise<void> {
    const session = await store.create({ id });
    for (let seq = 1; seq <= count; seq++) session.append('session/title', { title: `t${String(seq)}`.padEnd(pad(seq), '.') });
    await session.close();
  }

  it('equals the row-by-row read for any chunk size, in both forms, across chunk edges and the links of a grandchild’s chain', async () => {
    const { store, settings } = await fixture('chunks_chain');
    await titled(store, 'parent', 40);
    await (await store.fork('parent', { atSeq: 17, id: 'child' })).close();
    const child = await store.open('child');
    for (let index = 0; index < 6; index++) child.append('session/title', { title: `c${String(index)}` });
    await child.close();
    await (await store.fork('child', { atSeq: 21, id: 'grandchild' })).close();
    const ids = ['parent', 'child', 'grandchild'];
    const forms = ['lines', 'records'] as const;
    // Every chunk above the byte bound: the row-by-row read.
    const byRows = new Map<string, unknown>();
    for (const id of ids) {
      for (const form of forms) {
        expect(await readSealedChunks(settings({ rows: 4, bytes: 1 }), id, form, 0)).toBe('by-rows');
        byRows.set(`${id} ${form}`, shapeOf(await readStoredLog(settings({ rows: 4, bytes: 1 }), id, form)));
      }
    }
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 45 }), fc.constantFrom(...ids), fc.constantFrom(...forms), async (rows, id, form) => {
        const log = shapeOf(await readStoredLog(settings({ rows, bytes: 1 << 20 }), id, form));
        expect(log).toMatchObject(form === 'lines' ? { kind: 'validated-lines' } : { kind: 'records', validated: true });
        expect(log).toEqual(byRows.get(`${id} ${form}`));
        const events = (await store.inspect(id)).events;
        if (log?.kind === 'records') expect(log.events).toEqual(events);
        if (log?.kind === 'validated-lines') expect(log.lines).toEqual(events.map((event) => serializeEvent(event)));
      }),
      { numRuns: 20 },
    );
  });

  it('rows out of heap order (a large row written to a later page) still read back in seq order, as validated records', async () => {
    const { store, settings, q } = await fixture('chunks_heap');
    // Every fifth title fills most of a page and goes to a new one; the third of a page after it does
    // not fit there and goes back to the page before, which still has room.
    await titled(store, 'mixed', 60, (seq) => (seq % 5 === 0 ? 6_000 : seq % 5 === 1 ? 2_500 : 2));
    const { rows } = await q(
      `SELECT count(*)::integer AS inversions FROM (SELECT e.seq, lag(e.seq) OVER (ORDER BY e.ctid) AS before FROM S.events e JOIN S.sessions s ON s.segment = e.segment WHERE s.id = 'mixed') t WHERE t.seq < t.before`,
    );
    expect((rows[0] as { inversions: number }).inversions).toBeGreaterThan(0);
    const log = shapeOf(await readStoredLog(settings({ rows: 16, bytes: 1 << 20 }, bitmap), 'mixed', 'records'));
    expect(log).toMatchObject({ kind: 'records', validated: true });
    expect((log as Extract<typeof log, { kind: 'records' }>).events).toEqual((await store.inspect('mixed')).events);
  });

  it('a chunk above the byte bound sends the read row by row: the same records', async () => {
    const { store, settings } = await fixture('chunks_bound');
    await titled(store, 'big', 30, (seq) => (seq === 12 ? 5_000 : 2));
    // Only the chunk holding seq 12 is above 4 KiB.
    expect(await readSealedChunks(settings({ rows: 8, bytes: 4_096 }), 'big', 'records', 0)).toBe('by-rows');
    const log = shapeOf(await readStoredLog(settings({ rows: 8, bytes: 4_096 }), 'big', 'records'));
    expect(log).toMatchObject({ kind: 'records', validated: true });
    expect((log as Extract<typeof log, { kind: 'records' }>).events).toEqual((await store.inspect('big')).events);
  });

  it('a chunk is not taken as validated when a row names another seq, a seal is broken or a row is missing: read as text and validated', async () => {
    const { store, settings, q } = await fixture('chunks_tamper');
    await titled(store, 'titled', 40);
    const read = (): Promise<unknown> =>
      readStoredLog(settings({ rows: 8, bytes: 1 << 20 }), 'titled', 'records').then((log) => shapeOf(log)?.kind);
    expect(await read()).toBe('records');
    // Seq 5's row holds seq 6's line, sealed for its segment.
    await q(
      `UPDATE S.events e SET body = o.body, checksum = o.checksum FROM S.events o WHERE e.segment = o.segment AND e.seq = 5 AND o.seq = 6`,
    );
    expect(await read()).toBe('jsonl');
    await q(`UPDATE S.events e SET body = replace(e.body, '"seq":6,', '"seq":5,') WHERE e.seq = 5`);
    await q(`UPDATE S.events SET checksum = hashtextextended(body, segment) WHERE seq = 5`);
    expect(await read()).toBe('records');
    await q(`UPDATE S.events SET checksum = checksum + 1 WHERE seq = 33`);
    expect(await read()).toBe('jsonl');
    // A row without a seal among sealed ones (bool_and alone would skip its NULL).
    await q(`UPDATE S.events SET checksum = NULL WHERE seq = 33`);
    expect(await read()).toBe('jsonl');
    await q(`UPDATE S.events SET checksum = hashtextextended(body, segment) WHERE seq = 33`);
    await q(`DELETE FROM S.events WHERE seq = 39`);
    expect(await read()).toBe('jsonl');
    await expect(store.open('titled')).rejects.toMatchObject({ code: 'INVALID_EVENT' });
  });

  it('the connections of the store’s own pool run with JIT compilation off (it would cost more than the read)', async () => {
    const pool = new pg.Pool({ connectionString, ...OWN_POOL_SETTINGS });
    try {
      const { rows } = await pool.query<{ jit: string }>('SHOW jit');
      expect(rows[0]?.jit).toBe('off');
    } finally {
      await pool.end();
    }
  });
});
