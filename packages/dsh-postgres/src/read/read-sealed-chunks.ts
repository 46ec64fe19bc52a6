/**
 * A whole read of a sealed log in chunks the server aggregates: each chunk up to 256 consecutive
 * events of one chain link, their lines joined (`string_agg … ORDER BY seq`), with whether every
 * seal in it holds and how many rows it has — a few hundred protocol rows for a 100,000-event log
 * instead of one per event. For lines, the client cuts a chunk back into its lines (substrings of the
 * chunk, not copies) and checks each as a row of its own would be checked (sealed-rows.ts); for
 * records, a chunk is one JSON array whose events must be exactly its seqs, in order. A chunk above
 * the byte bound comes back without its lines, and the read is then done row by row, as is a log the
 * server cannot aggregate.
 */
import type { SessionEvent } from 'dsh-codec';
import { eachRow } from './each-row.js';
import type { PostgresSettings } from '../postgres-settings.js';
import { placeHead, placeLine, sealedResult, sealedRows, type SealedForm, type SealedRead, type SealedRows } from './sealed-rows.js';
import { chainChunks, sessionReadText } from './segment-chain.js';
import { statementName } from '../schema/statement-name.js';

/** `[first, lines, sealed, rows]`: the header row has first null, the header line, and `segment:next_seq` in `rows`. */
type ChunkRow = [first: number | null, lines: string | null, sealed: boolean | null, rows: string];

/** Events per chunk, and the most bytes of lines one chunk may aggregate (a string the client can hold many times over). */
export const DEFAULT_READ_CHUNK = { rows: 256, bytes: 32 * 1024 * 1024 };

/**
 * The chunked read's statement (`$1` id, `$2` first seq, `$3` rows per chunk, `$4` bytes per chunk,
 * `$5`, `$6`, `$7` what opens a chunk, separates its lines and closes it: `WRAPS`). @internal Exported
 * for the plan test.
 */
export function sealedChunksReadText(s: string): string {
  const wrap = { open: '$5::text', separator: '$6::text', close: '$7::text' };
  return sessionReadText(
    s,
    `SELECT k.first, a.lines, a.sealed, a.rows::text FROM ${chainChunks(s, '$2::integer', '$3::integer', '$4::bigint', wrap)}`,
  );
}

/**
 * How a chunk comes back: its lines as they are, each ending in its `'\n'` (for `lines`, cut back into
 * lines), or as one JSON array (for `records`: one `JSON.parse` per chunk, a few percent less than one
 * per line).
 */
const WRAPS: Record<SealedForm, [open: string, separator: string, close: string]> = { lines: ['', '', ''], records: ['[', ',', ']'] };

/** The server refused to build a value this large (SQLSTATE 54000, program_limit_exceeded). */
function isLimitError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '54000';
}

/**
 * The session's row and its rows from `from` on in `form`, read in chunks; undefined when the session
 * does not exist, `'by-rows'` when a chunk was too large to aggregate (read it row by row). @internal
 */
export async function readSealedChunks(
  context: PostgresSettings,
  id: string,
  form: SealedForm,
  from: number,
): Promise<SealedRead | 'by-rows' | undefined> {
  const chunk = context.readChunk ?? DEFAULT_READ_CHUNK;
  const read = sealedRows(form, from);
  // Set by the row handler when a chunk came back without its lines.
  const state = { oversized: false };
  const onRow = (row: unknown[]): void => {
    const [first, lines, sealed, rows] = row as ChunkRow;
    if (first === null) {
      placeHead(read, lines ?? '', rows);
      return;
    }
    const count = Number(rows);
    read.rows += count;
    if (!read.trusted || state.oversized) return;
    if (sealed !== true) read.trusted = false;
    else if (lines === null) state.oversized = true;
    else if (form === 'lines') placeLines(read, first, count, lines);
    else placeEvents(read, first, count, lines);
  };
  const statement = { name: statementName(context.schemaName, 'chunked_read'), text: sealedChunksReadText(context.schema) };
  try {
    await eachRow(context.pool, { ...statement, values: [id, from, chunk.rows, chunk.bytes, ...WRAPS[form]] }, onRow);
  } catch (error) {
    if (isLimitError(error)) return 'by-rows';
    throw error;
  }
  if (state.oversized && read.trusted && read.head !== undefined) return 'by-rows';
  return sealedResult(read);
}

/**
 * Places the `count` events of a chunk (a JSON array) whose first seq is `first`: the array must be
 * exactly those events, in seq order.
 */
function placeEvents(read: SealedRows, first: number, count: number, array: string): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(array);
  } catch {
    read.trusted = false;
    return;
  }
  if (!Array.isArray(parsed) || parsed.length !== count) {
    read.trusted = false;
    return;
  }
  for (let index = 0; index < count; index++) {
    const event = parsed[index] as SessionEvent | null;
    if (typeof event !== 'object' || event === null || event.seq !== first + index) {
      read.trusted = false;
      return;
    }
    read.events[first - read.from + index] = event;
  }
}

/**
 * Places the `count` lines of a chunk whose first seq is `first`: the chunk must be exactly `count`
 * lines, each ending in the only `'\n'` it holds (JSON escapes every control character).
 */
function placeLines(read: SealedRows, first: number, count: number, lines: string): void {
  let start = 0;
  for (let index = 0; index < count && read.trusted; index++) {
    const end = lines.indexOf('\n', start);
    if (end === -1) {
      read.trusted = false;
      return;
    }
    // Every seal in the chunk holds (the server checked them all).
    placeLine(read, first + index, lines.slice(start, end + 1), true);
    start = end + 1;
  }
  if (start !== lines.length) read.trusted = false;
}
