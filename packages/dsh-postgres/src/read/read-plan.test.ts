import { afterAll, describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';
import { sealedChunksReadText } from './read-sealed-chunks.js';
import { sealedReadText } from './segment-chain.js';
import { summaryReadText } from './read-summary-rows.js';
import { turnSeqsReadText, windowReadText } from './read-fork-window.js';
import { quoteSchema } from '../schema/schema-name.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

type PlanNode = { 'Node Type': string; 'Relation Name'?: string; Plans?: PlanNode[] };

/** Every node of a plan tree, depth first. */
function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe.skipIf(url === undefined)('reading a session or its summary looks up its own rows, whatever else the database holds', () => {
  const admin = new pg.Pool({ connectionString, max: 2 });
  const schema = uniqueSchemaName('plan');
  afterAll(async () => {
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('the sealed reads (row by row and in chunks) scan no table whole: segments by key, each chain link’s events by an index range', async () => {
    const store = await openPostgresStore({ connectionString, schema, hostId: 'plan' });
    try {
      // Many other sessions (rows as an older or foreign writer might leave them: the plan only
      // looks at their number), and a three-link chain to read: grandchild → child → parent.
      const q = (sql: string): Promise<pg.QueryResult> => admin.query(sql.replaceAll('S.', `"${schema}".`));
      await q(`INSERT INTO S.segments (base_count) SELECT 0 FROM generate_series(1, 3000)`);
      await q(`INSERT INTO S.sessions (id, segment, header, next_seq)
                 SELECT 'other-' || g.id, g.id, '{}', 40 FROM S.segments g`);
      await q(`INSERT INTO S.events (segment, seq, body)
                 SELECT g.id, n, repeat('x', 200) FROM S.segments g, generate_series(0, 39) n`);
      const parent = await store.create({ id: 'parent' });
      for (let title = 0; title < 20; title++) parent.append('session/title', { title: `p${String(title)}` });
      await parent.close();
      await (await store.fork('parent', { atSeq: 10, id: 'child' })).close();
      await (await store.fork('child', { atSeq: 11, id: 'grandchild' })).close();
      // No ANALYZE: right after a bulk import, before autovacuum has looked, the planner has no
      // statistics; the read must not depend on them.
      const client = await admin.connect();
      try {
        await client.query(`PREPARE sealed_read (text, integer) AS ${sealedReadText(quoteSchema(schema))}`);
        for (const from of [0, 5]) {
          const { rows } = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
            `EXPLAIN (FORMAT JSON) EXECUTE sealed_read ('grandchild', ${String(from)})`,
          );
          const nodes = nodesOf(rows[0]!['QUERY PLAN'][0].Plan);
          const scanned = nodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name']);
          expect(scanned).toEqual([]);
          // Events are reached through their primary key (an index or bitmap scan per chain link).
          const events = nodes.filter((node) => node['Relation Name'] === 'events').map((node) => node['Node Type']);
          expect(events.length).toBeGreaterThan(0);
          for (const type of events) expect(type).toMatch(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/);
        }
        // open's chunked read: the same lookups, one index range per chunk.
        await client.query(
          `PREPARE chunked_read (text, integer, integer, bigint, text, text, text) AS ${sealedChunksReadText(quoteSchema(schema))}`,
        );
        const chunkedPlan = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) EXECUTE chunked_read ('grandchild', 0, 4, 1048576, '[', ',', ']')`,
        );
        const chunkedNodes = nodesOf(chunkedPlan.rows[0]!['QUERY PLAN'][0].Plan);
        expect(chunkedNodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
        for (const node of chunkedNodes.filter((each) => each['Relation Name'] === 'events'))
          expect(node['Node Type']).toMatch(/^(Index Scan|Index Only Scan|Bitmap Heap Scan)$/);
        // The summary statement of list(): landmark rows through their partial index, the last row by key.
        await client.query(`PREPARE summary_read (text) AS ${summaryReadText(quoteSchema(schema))}`);
        const summaryPlan = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(
          `EXPLAIN (FORMAT JSON) EXECUTE summary_read ('grandchild')`,
        );
        const summaryNodes = nodesOf(summaryPlan.rows[0]!['QUERY PLAN'][0].Plan);
        expect(summaryNodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
        // A fork's window (read-fork-window.ts, in its transaction without bitmap scans): the turn seqs and
        // the ranges' rows, each an index range; the latest landmark of a type by schema step 7's index.
        await client.query('BEGIN');
        await client.query('SET LOCAL enable_bitmapscan = off');
        await client.query(`PREPARE window_turns (text, integer) AS ${turnSeqsReadText(quoteSchema(schema))}`);
        await client.query(`PREPARE window_rows (bigint, integer, integer[], integer[], text[]) AS ${windowReadText(quoteSchema(schema))}`);
        const { rows: segments } = await client.query<{ segment: string }>(
          `SELECT segment FROM "${schema}".sessions WHERE id = 'grandchild'`,
        );
        const windowPlans = [
          `EXPLAIN (FORMAT JSON) EXECUTE window_turns ('grandchild', 10)`,
          `EXPLAIN (FORMAT JSON) EXECUTE window_rows (${String(segments[0]?.segment)}, 13, '{5,12}', '{10,12}', '{session/title,session/config,turn/start,turn/end}')`,
        ];
        for (const explain of windowPlans) {
          const plan = await client.query<{ 'QUERY PLAN': [{ Plan: PlanNode }] }>(explain);
          const windowNodes = nodesOf(plan.rows[0]!['QUERY PLAN'][0].Plan);
          expect(windowNodes.filter((node) => node['Node Type'] === 'Seq Scan').map((node) => node['Relation Name'])).toEqual([]);
          for (const node of windowNodes.filter((each) => each['Relation Name'] === 'events'))
            expect(node['Node Type']).toMatch(/^(Index Scan|Index Only Scan)$/);
        }
        await client.query('ROLLBACK');
        // And the statement reads what it should: the header row, then seqs from..last across the chain.
        const { rows } = await client.query<{ seq: number | null }>({
          text: sealedReadText(quoteSchema(schema)),
          values: ['grandchild', 5],
          rowMode: 'array',
        } as pg.QueryConfig);
        const seqs = (rows as unknown as [number | null][]).map(([seq]) => seq);
        expect(seqs[0]).toBeNull();
        expect(seqs.slice(1).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(Array.from({ length: seqs.length - 1 }, (_, index) => 5 + index));
      } finally {
        client.release();
      }
    } finally {
      await store.close();
    }
  });
});
