/**
 * `open`'s read of a sealed log: every event parsed, so the server aggregates the rows into chunks of
 * a few hundred events, each one JSON array — a few hundred protocol rows and `JSON.parse` calls for a
 * 100,000-event log instead of one per event. A chunk is taken only when every row's seal holds and
 * the parsed events are exactly its seqs in order; a chunk above the byte bound (or a log the server
 * cannot aggregate) is read row by row instead.
 */
import type { SessionEvent } from 'dsh-codec';
import { eachRow } from './each-row.js';
import type { PostgresSettings } from './postgres-context.js';
import { chainChunks, sessionReadText } from './segment-chain.js';
import { statementName } from './statement-name.js';

/** `[first, body, sealed, rows]`: the header row has first null, the header line, and `segment:next_seq` in `rows`. */
type ChunkRow = [first: number | null, body: string | null, sealed: boolean | null, rows: string];

/** Events per chunk, and the most bytes of bodies one chunk may aggregate (a string the client can hold many times over). */
export const DEFAULT_READ_CHUNK = { rows: 256, bytes: 32 * 1024 * 1024 };

/** The chunked read's statement (`$1` id, `$2` first seq, `$3` rows per chunk, `$4` bytes per chunk). @internal Exported for the plan test. */
export function sealedChunksReadText(s: string): string {
  return sessionReadText(s, `SELECT k.first, a.body, a.sealed, a.rows::text FROM ${chainChunks(s, '$2::integer', '$3::integer', '$4::bigint')}`);
}

/** What the chunked read found: the session's row, and its events from `from` on when all of them can be trusted. */
export type ChunkedRead = {
  headerLine: string;
  segment: string;
  nextSeq: number;
  /** Index `i` holding seq `from + i`; undefined when untrusted. */
  events: SessionEvent[] | undefined;
};

/** The server refused to build a value this large (SQLSTATE 54000, program_limit_exceeded). */
function isLimitError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === '54000';
}

/**
 * The session's row and its events from `from` on, parsed chunk by chunk; undefined when the session
 * does not exist, `'by-rows'` when a chunk was too large to aggregate (read it row by row).
 */
export async function readSealedChunks(context: PostgresSettings, id: string, from: number): Promise<ChunkedRead | 'by-rows' | undefined> {
  const chunk = context.readChunk ?? DEFAULT_READ_CHUNK;
  const read: { head?: Omit<ChunkedRead, 'events'>; events: SessionEvent[]; trusted: boolean; oversized: boolean; rows: number } = {
    events: [],
    trusted: true,
    oversized: false,
    rows: 0,
  };
  const onRow = (row: unknown[]): void => {
    const [first, body, sealed, rows] = row as ChunkRow;
    if (first === null) {
      const [segment = '', nextSeq = ''] = rows.split(':');
      read.head = { headerLine: body ?? '', segment, nextSeq: Number(nextSeq) };
      return;
    }
    const count = Number(rows);
    read.rows += count;
    if (!read.trusted || read.oversized) return;
    if (sealed !== true) {
      read.trusted = false;
    } else if (body === null) {
      read.oversized = true;
    } else {
      read.trusted = placeChunk(read.events, from, first, count, body);
    }
  };
  try {
    await eachRow(context.pool, { name: statementName(context.schemaName, 'chunked_read'), text: sealedChunksReadText(context.schema), values: [id, from, chunk.rows, chunk.bytes] }, onRow);
  } catch (error) {
    if (isLimitError(error)) return 'by-rows';
    throw error;
  }
  const { head, events, trusted, oversized, rows } = read;
  if (head === undefined) return undefined;
  if (oversized && trusted) return 'by-rows';
  // Each chunk placed exactly its own seqs; n events in an array of length n, every seq below next_seq,
  // are exactly from .. next_seq - 1.
  const complete = trusted && events.length === rows && from + rows === head.nextSeq;
  return { ...head, events: complete ? events : undefined };
}

/**
 * Places the chunk of `count` events from seq `first` (index `first - from`); false unless `body` is a
 * JSON array of exactly those events, in seq order.
 */
function placeChunk(events: SessionEvent[], from: number, first: number, count: number, body: string): boolean {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return false;
  }
  if (!Array.isArray(parsed) || parsed.length !== count) return false;
  for (let index = 0; index < count; index++) {
    const event = parsed[index] as { seq?: unknown } | null;
    if (typeof event !== 'object' || event === null || event.seq !== first + index) return false;
  }
  for (let index = 0; index < count; index++) events[first - from + index] = parsed[index] as SessionEvent;
  return true;
}
