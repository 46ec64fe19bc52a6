/**
 * Reading a session back: its header and the event rows of its segment chain in one statement. Rows
 * that still carry the seal dsh-postgres put on them when it stored them (`checksum =
 * hashtextextended(body, 0)`, migration step 3) were validated by a Session or the codec before they
 * were written and have not changed since: such a log comes back as records marked `validated`, so
 * the store parses each line once and does not validate it again. Anything else — a row stored
 * before step 3, or inserted or edited by anything but dsh-postgres, a hole in the seqs, a header
 * that is not canonical V5 — comes back as JSONL text, which the store decodes and validates in full.
 */
import { encodeHeader, type SessionEvent, type SessionHeader } from 'dsh-codec';
import type { StoredLog } from 'dsh-session';
import type { PostgresSettings } from './postgres-context.js';

/** `[seq, body, sealed, source]`: the header row has seq null and the source; event rows a seal verdict. */
type LogRow = [seq: number | null, body: string, sealed: boolean | null, source: string | null];

/** The header and events of a log whose every row is sealed and whose lines are canonical V5; else undefined. */
function sealedRecords(headerLine: string, bodies: readonly string[]): { header: SessionHeader; events: SessionEvent[] } | undefined {
  let header: SessionHeader;
  try {
    header = JSON.parse(headerLine) as SessionHeader;
    // encodeHeader checks a current-version header in full (any other version is refused); its
    // canonical line must be the stored one.
    if (encodeHeader(header) !== headerLine) return undefined;
  } catch {
    return undefined;
  }
  const events = new Array<SessionEvent>(bodies.length);
  for (let seq = 0; seq < bodies.length; seq++) {
    let event: SessionEvent;
    try {
      event = JSON.parse(bodies[seq] as string) as SessionEvent;
    } catch {
      return undefined;
    }
    if (event.seq !== seq) return undefined;
    events[seq] = event;
  }
  return { header, events };
}

/**
 * Reads a session in one round trip: the header line, then the event rows of its segment chain (a
 * fork child's prefix comes from its ancestors' segments, each up to where the child refers to it),
 * placed by seq. `source` names the segment and the count read, for a no-copy fork of this read.
 * Undefined when the session does not exist. @internal
 */
export async function readStoredLog(context: PostgresSettings, id: string): Promise<StoredLog | undefined> {
  const s = context.schema;
  // No ORDER BY: rows are placed by seq here, so the server never sorts a log's bodies.
  const { rows } = await context.pool.query<LogRow>({
    text: `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), chain (segment, upto) AS (
       SELECT segment, next_seq FROM row
       UNION ALL
       SELECT g.base, LEAST(c.upto, g.base_count) FROM chain c JOIN ${s}.segments g ON g.id = c.segment WHERE g.base IS NOT NULL
     )
     SELECT NULL::integer, header, NULL::boolean, segment || ':' || next_seq FROM row
     UNION ALL
     SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, 0), NULL
       FROM chain c JOIN ${s}.segments g ON g.id = c.segment
       JOIN ${s}.events e ON e.segment = c.segment AND e.seq >= g.base_count AND e.seq < c.upto`,
    values: [id],
    rowMode: 'array',
  });
  let headerLine: string | undefined;
  let source: string | undefined;
  const bodies: string[] = [];
  let sealed = true;
  for (const [seq, body, seal, rowSource] of rows) {
    if (seq === null) {
      headerLine = body;
      source = rowSource ?? undefined;
      continue;
    }
    bodies[seq] = body;
    if (seal !== true) sealed = false;
  }
  if (headerLine === undefined) return undefined;
  // Rows are unique per (segment, seq) and each chain link owns a disjoint range: n rows fill 0..n-1 exactly.
  const complete = bodies.length === rows.length - 1;
  const records = sealed && complete ? sealedRecords(headerLine, bodies) : undefined;
  if (records !== undefined) return { kind: 'records', ...records, validated: true, ...(source === undefined ? {} : { source }) };
  // A hole (a row missing) joins as nothing: the codec then names the seq that is wrong.
  return { kind: 'jsonl', text: headerLine + bodies.join(''), ...(source === undefined ? {} : { source }) };
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
