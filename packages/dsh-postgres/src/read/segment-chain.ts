/**
 * A session's events are the rows of its segment chain (its segment, then each base up to where the
 * child refers to it): the SQL pieces every reader of a session shares.
 */
/**
 * A whole read of session `$1`: its row as `[NULL, header, NULL, 'segment:next_seq']`, then the rows
 * of `eventRows` (a SELECT of four columns over the chain: integer, text, boolean, text). @internal
 */
export function sessionReadText(s: string, eventRows: string): string {
  return `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), ${chainCte(s, 'SELECT segment, next_seq FROM row')}
     SELECT NULL::integer, header, NULL::boolean, segment || ':' || next_seq FROM row
     UNION ALL
     ${eventRows}`;
}

/**
 * The recursive CTE `chain (segment, upto, base_count, landmarks)`: the session's segment (`start`
 * selects it and its next seq) and each ancestor segment it reads from, with the seq it is read up to,
 * the seq its own rows start at, and whether its rows carry landmarks (schema step 5). Each step is a
 * lookup by primary key: the `OFFSET 0` keeps the planner from turning it into a hash join over every
 * segment. @internal
 */
export function chainCte(s: string, start: string): string {
  return `chain (segment, upto, base_count, landmarks) AS (
       SELECT c.segment, c.upto, g.base_count, g.landmarks FROM (${start}) c (segment, upto)
         CROSS JOIN LATERAL (SELECT base_count, landmarks FROM ${s}.segments WHERE id = c.segment OFFSET 0) g
       UNION ALL
       SELECT p.id, LEAST(c.upto, g.base_count), p.base_count, p.landmarks FROM chain c
         CROSS JOIN LATERAL (SELECT base, base_count FROM ${s}.segments WHERE id = c.segment OFFSET 0) g
         CROSS JOIN LATERAL (SELECT id, base_count, landmarks FROM ${s}.segments WHERE id = g.base OFFSET 0) p
     )`;
}

/**
 * A FROM item of the chain's event rows `e (segment, seq, body, checksum, landmark)` from seq `from` (an SQL
 * expression) on: per link, an index range scan of its own rows. The `OFFSET 0` keeps the planner from
 * flattening it into a join that scans the whole events table (every session's rows) and hashes them.
 * `where` adds a condition on the link's rows `x` (a summary's: their landmark); `latestOnly` keeps only
 * each link's latest such row. @internal
 */
export function chainRows(s: string, from: string, where = 'true', latestOnly = false): string {
  return `chain c CROSS JOIN LATERAL (
         SELECT x.segment, x.seq, x.body, x.checksum, x.landmark FROM ${s}.events x
          WHERE x.segment = c.segment AND x.seq >= GREATEST(c.base_count, ${from}) AND x.seq < c.upto AND ${where}
          ${latestOnly ? 'ORDER BY x.seq DESC LIMIT 1' : 'OFFSET 0'}
       ) e`;
}

/**
 * A FROM item of the chain's event rows from seq `from` on in chunks `a (lines, sealed, rows)` of up
 * to `rows` consecutive seqs of one link, `k.first` the chunk's first seq: `lines` the chunk's bodies
 * joined in seq order (between `wrap.open` and `wrap.close`, `wrap.separator` between bodies: SQL
 * expressions) (a bitmap scan returns them in heap order, which is not seq order once a large
 * row went to a later page), or NULL when they hold more than `bytes` bytes; `sealed` whether every
 * row's seal holds (a row without one, NULL, counts as broken: `bool_and` alone would skip it); `rows` how many rows the chunk has. @internal
 */
export function chainChunks(
  s: string,
  from: string,
  rows: string,
  bytes: string,
  wrap: { open: string; separator: string; close: string },
): string {
  return `chain c CROSS JOIN LATERAL generate_series(GREATEST(c.base_count, ${from}), c.upto - 1, ${rows}) AS k (first)
       CROSS JOIN LATERAL (
         SELECT CASE WHEN sum(octet_length(x.body)) <= ${bytes} THEN ${wrap.open} || string_agg(x.body, ${wrap.separator} ORDER BY x.seq) || ${wrap.close} END AS lines,
                bool_and(COALESCE(x.checksum = hashtextextended(x.body, x.segment), false)) AS sealed, count(*)::integer AS rows
           FROM ${s}.events x
          WHERE x.segment = c.segment AND x.seq >= k.first AND x.seq < LEAST(k.first + ${rows}, c.upto)
          OFFSET 0
       ) a`;
}

/**
 * The sealed read's statement (`$1` the session id, `$2` the first seq wanted): the session's row as
 * `[null, header, null, 'segment:next_seq']`, then `[seq, body, seal holds, null]` per event row.
 */
export function sealedReadText(s: string): string {
  return sessionReadText(s, `SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, e.segment), NULL FROM ${chainRows(s, '$2')}`);
}
