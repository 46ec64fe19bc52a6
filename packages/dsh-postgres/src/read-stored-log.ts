/**
 * Reading a session back: its header and the event rows of its segment chain in one statement. Rows
 * that still carry the seal dsh-postgres put on them when it stored them (`checksum =
 * hashtextextended(body, segment)`, migration step 3) were validated by a Session or the codec before they
 * were written and have not changed since: such a log comes back as `validated-lines`, which the
 * store parses only where it reads them and never validates again. Anything else — a row stored
 * before step 3, or inserted or edited by anything but dsh-postgres, a hole in the seqs, a header
 * that is not canonical V5 — comes back as JSONL text, which the store decodes and validates in full.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { StoredLog } from 'dsh-session';
import { eachRow } from './each-row.js';
import { readSealedChunks, type ChunkedRead } from './read-sealed-chunks.js';
import { canonicalHeader, isSealedLine } from './sealed-rows.js';
import type { PostgresSettings } from './postgres-context.js';
import type { ReadCache } from './read-cache.js';
import { chainCte, chainRows, sessionReadText } from './segment-chain.js';
import { statementName } from './statement-name.js';

/** `[seq, body, sealed, source]`: the header row has seq null and the source; event rows a seal verdict. */
type LogRow = [seq: number | null, body: string, sealed: boolean | null, source: string | null];

/**
 * How a sealed log comes back: `lines` unparsed (an observation or a fork parses only what it reads),
 * or `records` parsed (`open` keeps every event): from the server's chunks (read-sealed-chunks.ts),
 * or row by row as each row arrives when a chunk is too large.
 */
export type SealedForm = 'lines' | 'records';

/**
 * The sealed read's statement (`$1` the session id, `$2` the first seq wanted): the session's row as
 * `[null, header, null, 'segment:next_seq']`, then `[seq, body, seal holds, null]` per event row.
 * @internal Exported for the plan test.
 */
export function sealedReadText(s: string): string {
  return sessionReadText(s, `SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, e.segment), NULL FROM ${chainRows(s, '$2')}`);
}

/** What a sealed read found: the session's row, and its rows from `from` on when all of them can be trusted. */
type SealedRead = {
  headerLine: string;
  segment: string;
  nextSeq: number;
  /** The rows' bodies (`form` lines) or parsed events (`form` records), index `i` holding seq `from + i`; undefined when untrusted. */
  rows: { lines: string[]; events: SessionEvent[] } | undefined;
};

/**
 * The sealed read: the session's row and its chain's event rows from seq `from` on, in one
 * statement, unsorted (each row is placed by its seq, so the server never sorts a log's bodies).
 * Undefined when the session does not exist; `rows: undefined` as soon as a row is not sealed or in
 * place, or the rows are not exactly `from .. next_seq - 1`.
 */
async function readSealed(context: PostgresSettings, id: string, form: SealedForm, from: number): Promise<SealedRead | undefined> {
  const s = context.schema;
  // Filled by the row handler; `trusted` turns false once the log cannot be taken as validated.
  const read: { head?: { headerLine: string; segment: string; nextSeq: number }; lines: string[]; events: SessionEvent[]; trusted: boolean; rows: number } = {
    lines: [],
    events: [],
    trusted: true,
    rows: 0,
  };
  await eachRow(
    context.pool,
    {
      name: statementName(context.schemaName, 'sealed_read'),
      text: sealedReadText(s),
      values: [id, from],
    },
    (row) => {
      const [seq, body, sealed, rowSource] = row as LogRow;
      if (seq === null) {
        const [segment = '', nextSeq = ''] = (rowSource ?? '').split(':');
        read.head = { headerLine: body, segment, nextSeq: Number(nextSeq) };
        return;
      }
      read.rows += 1;
      if (!read.trusted) return;
      if (!isSealedLine(seq, body, sealed)) {
        read.trusted = false;
      } else if (form === 'lines') {
        read.lines[seq - from] = body;
      } else {
        try {
          read.events[seq - from] = JSON.parse(body) as SessionEvent;
        } catch {
          read.trusted = false;
        }
      }
    },
  );
  const { head, lines, events, trusted, rows } = read;
  if (head === undefined) return undefined;
  // Rows are unique per (segment, seq) and each chain link owns a disjoint range: n rows placed in
  // an array of length n with every seq below next_seq are exactly from .. next_seq - 1.
  const placed = form === 'lines' ? lines.length : events.length;
  const complete = trusted && placed === rows && from + rows === head.nextSeq;
  return { ...head, rows: complete ? { lines, events } : undefined };
}

/** A sealed read's log in `form`, when its rows and header can be trusted as validated (`lines`: the first `count` are this read's). */
function sealedLog(read: SealedRead, form: SealedForm, header: SessionHeader, lines: readonly string[] | undefined, count = read.nextSeq): StoredLog | undefined {
  const source = `${read.segment}:${String(read.nextSeq)}`;
  if (form === 'lines') return lines === undefined ? undefined : { kind: 'validated-lines', header, lines, count, source };
  return read.rows === undefined ? undefined : { kind: 'records', header, events: read.rows.events, validated: true, source };
}

/** A chunked read's log as validated records, when its rows and header can be trusted as validated. */
function recordsLog(read: ChunkedRead): StoredLog | undefined {
  const header = read.events === undefined ? undefined : canonicalHeader(read.headerLine);
  if (header === undefined || read.events === undefined) return undefined;
  return { kind: 'records', header, events: read.events, validated: true, source: `${read.segment}:${String(read.nextSeq)}` };
}

/**
 * A read of `id` that transfers only the rows written since this store last read it, when the cache
 * holds its lines and the session still names the same segment and header line (nothing below the
 * cached count can have changed); undefined when the cached lines cannot be extended (then they are
 * dropped and the caller reads in full), `null` when the session no longer exists.
 */
async function readFromCache(context: PostgresSettings, cache: ReadCache, id: string): Promise<StoredLog | null | undefined> {
  const cached = cache.get(id);
  if (cached === undefined) return undefined;
  const from = cached.lines.length;
  const read = await readSealed(context, id, 'lines', from);
  if (read === undefined) {
    cache.delete(id);
    return null;
  }
  if (read.rows === undefined || read.segment !== cached.segment || read.headerLine !== cached.headerLine) {
    if (cache.get(id) === cached) cache.delete(id);
    return undefined;
  }
  // Another read of this session may have extended the same lines meanwhile (the same rows: they
  // never change); only what it did not add is appended.
  const known = cached.lines.length - from;
  if (known < read.rows.lines.length) cache.extend(id, cached, known === 0 ? read.rows.lines : read.rows.lines.slice(known));
  return sealedLog(read, 'lines', cached.header, cached.lines, read.nextSeq);
}

/** The log as JSONL text in seq order, for the codec to decode and validate in full. */
async function readText(context: PostgresSettings, id: string): Promise<StoredLog | undefined> {
  const s = context.schema;
  const { rows } = await context.pool.query<{ header: string; segment: string; next_seq: number; body: string | null }>(
    `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), ${chainCte(s, 'SELECT segment, next_seq FROM row')}
     SELECT row.header, row.segment, row.next_seq, (SELECT string_agg(e.body, '' ORDER BY e.seq) FROM ${chainRows(s, '0')}) AS body
     FROM row`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  return { kind: 'jsonl', text: row.header + (row.body ?? ''), source: `${row.segment}:${String(row.next_seq)}` };
}

/**
 * Reads a session: when every row is sealed (one statement), validated lines left unparsed or records
 * parsed from chunks (`form`), else —
 * a row edited or inserted outside dsh-postgres, or stored before schema step 3 — the JSONL text of
 * a second read, which the store decodes and validates in full. A fork child's prefix comes from its
 * ancestors' segments, each up to where the child refers to it. `source` names the segment and the
 * count read, for a no-copy fork of this read. Undefined when the session does not exist. @internal
 */
export async function readStoredLog(context: PostgresSettings, id: string, form: SealedForm = 'lines'): Promise<StoredLog | undefined> {
  const cache = form === 'lines' ? context.readCache : undefined;
  if (cache !== undefined) {
    const extended = await readFromCache(context, cache, id);
    if (extended === null) return undefined;
    if (extended !== undefined) return extended;
  }
  if (form === 'records') {
    const chunked = await readSealedChunks(context, id, 0);
    if (chunked === undefined) return undefined;
    if (chunked !== 'by-rows') return recordsLog(chunked) ?? readText(context, id);
  }
  const read = await readSealed(context, id, form, 0);
  if (read === undefined) return undefined;
  const header = read.rows === undefined ? undefined : canonicalHeader(read.headerLine);
  const log = header === undefined ? undefined : sealedLog(read, form, header, read.rows?.lines);
  if (log === undefined) return readText(context, id);
  // The read's own array: the cache may grow it later, past the `count` this log holds.
  if (cache !== undefined && header !== undefined && read.rows !== undefined) cache.set(id, { segment: read.segment, headerLine: read.headerLine, header, lines: read.rows.lines });
  return log;
}

/** The event lines of session `id` from seq `fromSeq` on, in seq order (empty when there are none or no such session). @internal */
export async function readEventLines(context: PostgresSettings, id: string, fromSeq: number): Promise<string[]> {
  const s = context.schema;
  const { rows } = await context.pool.query<{ body: string }>({
    name: statementName(context.schemaName, 'event_lines'),
    text: `WITH RECURSIVE ${chainCte(s, `SELECT segment, next_seq FROM ${s}.sessions WHERE id = $1`)}
     SELECT e.body FROM ${chainRows(s, '$2')}
     ORDER BY e.seq`,
    values: [id, fromSeq],
  });
  return rows.map((row) => row.body);
}
