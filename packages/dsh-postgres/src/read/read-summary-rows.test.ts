import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionHeader } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { createMemoryStore } from 'dsh-session';
import pg from 'pg';
import { arbitraryLogWithSeq, postgresTestUrl } from '@dsh/test-utils';
import { readerSettings, testSchemas } from '../__fixtures__/test-schemas.js';
import { countingPool } from '../__fixtures__/counting-pool.js';
import { readSummaryRows } from './read-summary-rows.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 7, id, createdAt: 3, inheritedEventCount: 0 });

describe.skipIf(url === undefined)('list() on PostgreSQL reads a summary from its landmark rows, not the whole log', () => {
  const made = testSchemas(connectionString);

  async function fixture(prefix: string, pool?: pg.Pool) {
    const schema = made.schema(prefix);
    const store = await openPostgresStore({
      ...(pool === undefined ? { connectionString } : { pool }),
      schema,
      hostId: 'summary',
      now: () => 9,
    });
    made.keep(store);
    const settings = readerSettings(made.admin, schema);
    const q = (sql: string): Promise<pg.QueryResult> => made.query(schema, sql);
    return { schema, store, parts: (id: string) => readSummaryRows(settings, id), q };
  }

  it('gives the summaries a store that reads every event gives, over generated logs and their forks', async () => {
    const { store, parts } = await fixture('summary_equal');
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryLogWithSeq(),
        fc.constantFrom(undefined, { model: 'm' }, { cwd: '/kid' }),
        async ({ events, seq }, config) => {
          const id = `s${String(++round)}`;
          const memory = createMemoryStore({ now: () => 9 });
          try {
            for (const target of [store, memory]) {
              await target.import({ header: header(id), events: events });
              // A child config without a cwd makes the summary look further back for one.
              await (
                await target.fork(id, { atSeq: seq, id: `${id}-kid`, title: 'kid', ...(config === undefined ? {} : { config }) })
              ).close();
            }
            expect(await parts(id)).toBeDefined();
            expect(await parts(`${id}-kid`)).toBeDefined();
            const mine = (await store.list()).filter((summary) => summary.id === id || summary.id === `${id}-kid`);
            expect(mine.sort((a, b) => (a.id < b.id ? -1 : 1))).toEqual((await memory.list()).sort((a, b) => (a.id < b.id ? -1 : 1)));
          } finally {
            await memory.close();
          }
        },
      ),
      { numRuns: 40 },
    );
  });

  it('transfers a handful of rows for a long session, and follows a growing one', async () => {
    const { pool, rows } = countingPool(connectionString);
    const { store } = await fixture('summary_rows', pool);
    made.keep(pool);
    const session = await store.create({ id: 'long', title: 'first', config: { cwd: '/work' } });
    for (let turn = 1; turn <= 100; turn++) {
      session.append('turn/start', { turn });
      for (let index = 0; index < 18; index++) session.append('session/title', { title: `t${String(turn)}.${String(index)}` });
      if (turn < 100) session.append('turn/end', { turn, reason: { kind: 'completed' } });
    }
    await session.flush();
    const before = rows();
    const [summary] = (await store.list()).filter((entry) => entry.id === 'long');
    expect(summary).toMatchObject({ title: 't100.17', cwd: '/work', lastSeq: session.events.length - 1, needsRepair: false, busy: true });
    // The header row, the latest title, the config, the last row, the turn seqs — not the 2,000 events.
    expect(rows() - before).toBeLessThanOrEqual(5 + 1);
    await session.close();
    const [closed] = (await store.list()).filter((entry) => entry.id === 'long');
    expect(closed?.needsRepair).toBe(true);
  });

  it('lists many sessions in one query for the list and one per changed summary: busy comes with the list, not from a query per session', async () => {
    const { pool, queries } = countingPool(connectionString);
    made.keep(pool);
    const { schema, store: writer } = await fixture('summary_busy');
    const reader = await openPostgresStore({ pool, schema, hostId: 'reader' });
    made.keep(reader);
    for (let index = 0; index < 20; index++) await (await writer.create({ id: `s${String(index)}`, title: `t${String(index)}` })).close();
    const held = await writer.open('s7');
    const before = queries();
    const listed = await reader.list();
    expect(queries() - before).toBeLessThanOrEqual(1 + 20);
    expect(listed.filter((summary) => summary.busy).map((summary) => summary.id)).toEqual(['s7']);
    await held.close();
    expect((await reader.list()).filter((summary) => summary.busy)).toEqual([]);
  });

  it('falls back to reading the session whole when a segment predates landmarks or a row it reads lost its seal', async () => {
    const { store, parts, q } = await fixture('summary_fallback');
    const session = await store.create({ id: 'old', title: 'kept' });
    session.append('session/title', { title: 'latest' });
    await session.close();
    expect(await parts('old')).toBeDefined();
    await q(`UPDATE S.segments SET landmarks = false`);
    expect(await parts('old')).toBeUndefined();
    const [fallback] = await store.list();
    expect(fallback).toMatchObject({ id: 'old', title: 'latest' });
    await q(`UPDATE S.segments SET landmarks = true`);
    await q(`UPDATE S.events SET body = replace(body, '"latest"', '"edited"') WHERE landmark = 'session/title' AND seq = 2`);
    expect(await parts('old')).toBeUndefined();
    await expect(parts('missing')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
  });
});
