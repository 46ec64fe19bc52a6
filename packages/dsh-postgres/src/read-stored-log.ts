/**
 * Reading a session back: its header and the event rows of its segment chain in one statement. Rows
 * that still carry the seal dsh-postgres put on them when it stored them (`checksum =
 * hashtextextended(body, segment)`, migration step 3) were validated by a Session or the codec before they
 * were written and have not changed since: such a log comes back as `validated-lines`, which the
 * store parses only where it reads them and never validates again. Anything else — a row stored
 * before step 3, or inserted or edited by anything but dsh-postgres, a hole in the seqs, a header
 * that is not canonical V5 — comes back as JSONL text, which the store decodes and validates in full.
 */
import { encodeHeader, type SessionEvent, type SessionHeader } from 'dsh-codec';
import type { StoredLog } from 'dsh-session';
import pg, { type Pool } from 'pg';
import type { PostgresSettings } from './postgres-context.js';

/** `[seq, body, sealed, source]`: the header row has seq null and the source; event rows a seal verdict. */
type LogRow = [seq: number | null, body: string, sealed: boolean | null, source: string | null];

/** A current-version header whose canonical line is `line`; undefined for anything else. */
function canonicalHeader(line: string): SessionHeader | undefined {
  try {
    const header = JSON.parse(line) as SessionHeader;
    // encodeHeader checks a current-version header in full (any other version is refused).
    return encodeHeader(header) === line ? header : undefined;
  } catch {
    return undefined;
  }
}

/** Runs `config` on a connection of the pool, handing each row to `onRow` as it arrives (rows are not collected). */
async function eachRow(pool: Pool, config: { text: string; values: unknown[] }, onRow: (row: LogRow) => void): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      // Array rows (no object per row); @types/pg's Query config does not declare `rowMode`.
      const query = new pg.Query<LogRow>({ ...config, rowMode: 'array' } as pg.QueryConfig);
      query.on('row', (row) => {
        onRow(row);
      });
      query.on('error', reject);
      query.on('end', () => {
        resolve();
      });
      client.query(query);
    });
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-query is discarded, not handed to the next caller.
    client.release(failure);
  }
}

/**
 * How a sealed log comes back: `lines` unparsed (an observation or a fork parses only what it reads),
 * or `records` parsed as each row arrives, overlapping the transfer (`open` keeps every event).
 */
export type SealedForm = 'lines' | 'records';

type SealedLog = StoredLog & { kind: 'validated-lines' | 'records' };

/**
 * The sealed read: the header row and the chain's event rows in one statement, unsorted (each row is
 * placed by its seq, so the server never sorts a log's bodies). Undefined when the session does not
 * exist; `log: undefined` as soon as anything is not sealed, canonical or in place.
 */
async function readSealed(context: PostgresSettings, id: string, form: SealedForm): Promise<{ log: SealedLog | undefined } | undefined> {
  const s = context.schema;
  // Filled by the row handler; `trusted` turns false once the log cannot be taken as validated.
  const read: { headerLine?: string; source?: string; lines: string[]; events: SessionEvent[]; trusted: boolean; rows: number } = {
    lines: [],
    events: [],
    trusted: true,
    rows: 0,
  };
  await eachRow(
    context.pool,
    {
      text: `WITH RECURSIVE row AS (
         SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
       ), chain (segment, upto) AS (
         SELECT segment, next_seq FROM row
         UNION ALL
         SELECT g.base, LEAST(c.upto, g.base_count) FROM chain c JOIN ${s}.segments g ON g.id = c.segment WHERE g.base IS NOT NULL
       )
       SELECT NULL::integer, header, NULL::boolean, segment || ':' || next_seq FROM row
       UNION ALL
       SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, e.segment), NULL
         FROM chain c JOIN ${s}.segments g ON g.id = c.segment
         JOIN ${s}.events e ON e.segment = c.segment AND e.seq >= g.base_count AND e.seq < c.upto`,
      values: [id],
    },
    ([seq, body, sealed, rowSource]) => {
      if (seq === null) {
        read.headerLine = body;
        if (rowSource !== null) read.source = rowSource;
        return;
      }
      read.rows += 1;
      if (!read.trusted) return;
      // A sealed body is the line serializeEvent wrote for this seq; checking that costs no parse.
      if (sealed !== true || !body.startsWith(`{"seq":${String(seq)},`) || !body.endsWith('}\n')) {
        read.trusted = false;
      } else if (form === 'lines') {
        read.lines[seq] = body;
      } else {
        try {
          read.events[seq] = JSON.parse(body) as SessionEvent;
        } catch {
          read.trusted = false;
        }
      }
    },
  );
  const { headerLine, source, lines, events, trusted, rows } = read;
  if (headerLine === undefined) return undefined;
  const header = trusted ? canonicalHeader(headerLine) : undefined;
  // Rows are unique per (segment, seq) and each chain link owns a disjoint range: n rows fill 0..n-1
  // exactly (a hole leaves the array sparse, its length past the row count).
  if (header === undefined || (form === 'lines' ? lines : events).length !== rows) return { log: undefined };
  const origin = source === undefined ? {} : { source };
  return { log: form === 'lines' ? { kind: 'validated-lines', header, lines, ...origin } : { kind: 'records', header, events, validated: true, ...origin } };
}

/** The log as JSONL text in seq order, for the codec to decode and validate in full. */
async function readText(context: PostgresSettings, id: string): Promise<StoredLog | undefined> {
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

/**
 * Reads a session: when every row is sealed (one statement), validated lines left unparsed or records
 * parsed as they arrive (`form`), else —
 * a row edited or inserted outside dsh-postgres, or stored before schema step 3 — the JSONL text of
 * a second read, which the store decodes and validates in full. A fork child's prefix comes from its
 * ancestors' segments, each up to where the child refers to it. `source` names the segment and the
 * count read, for a no-copy fork of this read. Undefined when the session does not exist. @internal
 */
export async function readStoredLog(context: PostgresSettings, id: string, form: SealedForm = 'lines'): Promise<StoredLog | undefined> {
  const sealed = await readSealed(context, id, form);
  if (sealed === undefined) return undefined;
  return sealed.log ?? (await readText(context, id));
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
