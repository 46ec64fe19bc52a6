/**
 * @module Reading a session back: its header and the event rows of its segment chain in one statement. Rows
 * that still carry the seal dsh-postgres put on them when it stored them (`checksum =
 * hashtextextended(body, segment)`, migration step 3) were validated by a Session or the codec before they
 * were written and have not changed since: such a log comes back as validated lines, which the
 * store parses only where it reads them and never validates again. Anything else — a row stored
 * before step 3, or inserted or edited by anything but dsh-postgres, a hole in the seqs, a header
 * that is not canonical current (V7) — comes back as JSONL text, which the store decodes and validates in full.
 */
import type { SessionHeader } from 'dsh-codec';
import { JsonlTextLog, RecordsLog, ValidatedLinesLog, type StoredRead } from 'dsh-session/internal';
import { eachRow } from './each-row.js';
import { readSealedChunks } from './read-sealed-chunks.js';
import { canonicalHeader, placeHead, placeLine, sealedResult, sealedRows, type SealedForm, type SealedRead } from './sealed-rows.js';
import type { PostgresSettings } from '../postgres-settings.js';
import type { ReadCache } from './read-cache.js';
import { chainCte, chainRows, sealedReadText } from './segment-chain.js';
import { statementName } from '../schema/statement-name.js';
import { readProvenance } from '../segment-provenance.js';

/** `[seq, body, sealed, source]`: the header row has seq null and the source; event rows a seal verdict. */
type LogRow = [seq: number | null, body: string, sealed: boolean | null, source: string | null];

/**
 * The sealed read row by row: the session's row and its chain's event rows from seq `from` on, in one
 * statement, unsorted (each row is placed by its seq, so the server never sorts a log's bodies).
 * Undefined when the session does not exist; `rows: undefined` as soon as a row is not sealed or in
 * place, or the rows are not exactly `from .. next_seq - 1`.
 */
async function readSealedRows(context: PostgresSettings, id: string, form: SealedForm, from: number): Promise<SealedRead | undefined> {
  const read = sealedRows(form, from);
  const statement = { name: statementName(context.schemaName, 'sealed_read'), text: sealedReadText(context.schema) };
  await eachRow(context.pool, { ...statement, values: [id, from] }, (row) => {
    const [seq, body, sealed, source] = row as LogRow;
    if (seq === null) {
      placeHead(read, body, source ?? '');
      return;
    }
    read.rows += 1;
    if (read.trusted) placeLine(read, seq, body, sealed);
  });
  return sealedResult(read);
}

/** The sealed read: in chunks (read-sealed-chunks.ts), or row by row when a chunk is too large to aggregate. */
async function readSealed(context: PostgresSettings, id: string, form: SealedForm, from: number): Promise<SealedRead | undefined> {
  const chunked = await readSealedChunks(context, id, form, from);
  return chunked === 'by-rows' ? readSealedRows(context, id, form, from) : chunked;
}

/** A sealed read's log in `form`, when its rows and header can be trusted as validated (`lines`: the first `count` are this read's). */
function sealedLog(
  read: SealedRead,
  form: SealedForm,
  header: SessionHeader,
  lines: readonly string[] | undefined,
  count = read.nextSeq,
): StoredRead | undefined {
  const provenance = readProvenance(read.segment, read.nextSeq);
  if (form === 'lines') return lines === undefined ? undefined : { log: new ValidatedLinesLog(header, lines, count), provenance };
  return read.rows === undefined ? undefined : { log: new RecordsLog(header, read.rows.events, true), provenance };
}

/**
 * A read of `id` that transfers only the rows written since this store last read it, when the cache
 * holds its lines and the session still names the same segment and header line (nothing below the
 * cached count can have changed); undefined when the cached lines cannot be extended (then they are
 * dropped and the caller reads in full), `null` when the session no longer exists.
 */
async function readFromCache(context: PostgresSettings, cache: ReadCache, id: string): Promise<StoredRead | null | undefined> {
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
async function readText(context: PostgresSettings, id: string): Promise<StoredRead | undefined> {
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
  return { log: new JsonlTextLog(row.header + (row.body ?? '')), provenance: readProvenance(row.segment, row.next_seq) };
}

/**
 * Reads a session: when every row is sealed (one statement), validated lines left unparsed or records
 * parsed (`form`), else —
 * a row edited or inserted outside dsh-postgres, or stored before schema step 3 — the JSONL text of
 * a second read, which the store decodes and validates in full. A fork child's prefix comes from its
 * ancestors' segments, each up to where the child refers to it. The read's provenance names the segment
 * and the count read, for a no-copy fork of this read. Undefined when the session does not exist. @internal
 */
export async function readStoredLog(context: PostgresSettings, id: string, form: SealedForm = 'lines'): Promise<StoredRead | undefined> {
  const cache = form === 'lines' ? context.readCache : undefined;
  if (cache !== undefined) {
    const extended = await readFromCache(context, cache, id);
    if (extended === null) return undefined;
    if (extended !== undefined) return extended;
  }
  const read = await readSealed(context, id, form, 0);
  if (read === undefined) return undefined;
  const header = read.rows === undefined ? undefined : canonicalHeader(read.headerLine);
  const log = header === undefined ? undefined : sealedLog(read, form, header, read.rows?.lines);
  if (log === undefined) return readText(context, id);
  // The read's own array: the cache may grow it later, past the `count` this log holds.
  if (cache !== undefined && header !== undefined && read.rows !== undefined)
    cache.set(id, { segment: read.segment, headerLine: read.headerLine, header, lines: read.rows.lines });
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
