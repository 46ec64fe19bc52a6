import type { StoredLog } from 'dsh-session';
import type { PostgresSettings } from './postgres-context.js';

/**
 * Reads a session as JSONL text in one round trip: the header line, then the event lines of its
 * segment chain (a fork child's prefix comes from its ancestors' segments, each up to where the child
 * refers to it). `source` names the segment and the count read, for a no-copy fork of this read.
 * Undefined when the session does not exist. @internal
 */
export async function readStoredLog(context: PostgresSettings, id: string): Promise<StoredLog | undefined> {
  const s = context.schema;
  const { rows } = await context.pool.query<{ header: string; segment: string; next_seq: number; body: string | null }>(
    `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), chain (segment, upto) AS (
       SELECT segment, next_seq FROM row
       UNION ALL
       SELECT g.base, LEAST(c.upto, g.base_count) FROM chain c JOIN ${s}.segments g ON g.id = c.segment WHERE g.base IS NOT NULL
     )
     SELECT row.header, row.segment, row.next_seq,
       (SELECT string_agg(e.body, '' ORDER BY e.seq)
          FROM chain c JOIN ${s}.segments g ON g.id = c.segment
          JOIN ${s}.events e ON e.segment = c.segment AND e.seq >= g.base_count AND e.seq < c.upto) AS body
     FROM row`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { kind: 'jsonl', text: row.header + (row.body ?? ''), source: `${row.segment}:${String(row.next_seq)}` };
}

/** The event lines of session `id` from seq `fromSeq` on, in seq order (empty when there are none or no such session). @internal */
export async function readEventLines(context: PostgresSettings, id: string, fromSeq: number): Promise<string[]> {
  const s = context.schema;
  const { rows } = await context.pool.query<{ body: string }>(
    `WITH RECURSIVE chain (segment, upto) AS (
       SELECT segment, next_seq FROM ${s}.sessions WHERE id = $1
       UNION ALL
       SELECT g.base, LEAST(c.upto, g.base_count) FROM chain c JOIN ${s}.segments g ON g.id = c.segment WHERE g.base IS NOT NULL
     )
     SELECT e.body FROM chain c JOIN ${s}.segments g ON g.id = c.segment
       JOIN ${s}.events e ON e.segment = c.segment AND e.seq >= GREATEST(g.base_count, $2) AND e.seq < c.upto
     ORDER BY e.seq`,
    [id, fromSeq],
  );
  return rows.map((row) => row.body);
}
