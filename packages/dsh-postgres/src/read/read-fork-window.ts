/**
 * @module `readForkWindow`: a read of a session for a fork by id by a store that does not hold it — the
 * session's row and its landmark rows (titles, configs, turn starts and ends, indexed since schema step
 * 5), then only the rows the fork reads: from the latest turn start at or before the cut to the cut,
 * and the latest turn of the log (with what the omitted cut's rule scans). Every other line loads on
 * first read, synchronously (`load-lines-sync.ts`), from the segment and count this read named — rows
 * below a segment's written end never change, and a child refers to that segment once it exists.
 */
import type { PoolClient } from 'pg';
import type { StoredRead } from 'dsh-session/internal';
import { WindowedLinesLog } from 'dsh-session/internal';
import { notFoundError } from '../lease/lease-errors.js';
import type { PostgresSettings } from '../postgres-settings.js';
import { statementName } from '../schema/statement-name.js';
import { readProvenance } from '../segment-provenance.js';
import { LANDMARK_TYPES } from './landmarks.js';
import { loadLinesSync, type SyncConnection } from './load-lines-sync.js';
import { canonicalHeader, isSealedLine } from './sealed-rows.js';
import { chainCte, chainRows } from './segment-chain.js';

/** `[seq, body, sealed, extra]`: the session row has seq null, extra `segment:next_seq:every link has landmarks`; a landmark row its landmark. */
type WindowRow = [seq: number | null, body: string | null, sealed: boolean | null, extra: string | null];

/** The latest landmark row of the chain (as `[seq, NULL, NULL, landmark]`) matching `where` (on its row `x`). */
function latestLandmark(s: string, where: string): string {
  return `(SELECT e.seq, NULL::text, NULL::boolean, e.landmark FROM ${chainRows(s, '0', where, true)} ORDER BY e.seq DESC LIMIT 1)`;
}

/**
 * Statement 1 (`$1` the id, `$2` the cut or -1): the session row, then the seqs of its latest turn start
 * at or before the cut, its latest turn start and its latest turn end — each by the landmark index,
 * never the other rows. @internal Exported for the plan test.
 */
export function turnSeqsReadText(s: string): string {
  return `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), ${chainCte(s, 'SELECT segment, next_seq FROM row')}
     SELECT NULL::integer, header, NULL::boolean, segment || ':' || next_seq || ':' || (SELECT bool_and(landmarks) FROM chain) FROM row
     UNION ALL ${latestLandmark(s, `x.landmark = 'turn/start' AND x.seq <= $2`)}
     UNION ALL ${latestLandmark(s, `x.landmark = 'turn/start'`)}
     UNION ALL ${latestLandmark(s, `x.landmark = 'turn/end'`)}`;
}

/** Statement 1b (`$1` the segment, `$2` its count, `$3` a seq): the latest turn start at or before it and the first after it. @internal */
export function turnsAroundReadText(s: string): string {
  return `WITH RECURSIVE ${chainCte(s, 'SELECT $1::bigint, $2::integer')}
     ${latestLandmark(s, `x.landmark = 'turn/start' AND x.seq <= $3`)}
     UNION ALL
     (SELECT e.seq, NULL::text, NULL::boolean, e.landmark FROM ${chainRows(s, '$3 + 1', `x.landmark = 'turn/start'`)} ORDER BY e.seq LIMIT 1)`;
}

/** The chain's rows of `r` (a FROM item of `(lo, hi)` seq ranges) as `[seq, body, sealed, landmark]`, each range an index range per link. */
function rangeRows(s: string, ranges: string, where = 'true'): string {
  return `SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, e.segment), e.landmark FROM ${ranges} CROSS JOIN chain c CROSS JOIN LATERAL (
         SELECT x.segment, x.seq, x.body, x.checksum, x.landmark FROM ${s}.events x
          WHERE x.segment = c.segment AND x.seq >= GREATEST(c.base_count, r.lo) AND x.seq < LEAST(c.upto, r.hi + 1) AND ${where}
          OFFSET 0
       ) e`;
}

/**
 * Statement 2 (`$1` the segment, `$2` its count, `$3`/`$4` the ranges' first and last seqs, `$5` the
 * landmark types): the rows of those ranges, and before each range the latest row of each landmark type
 * (by the landmark index). @internal
 */
export function windowReadText(s: string): string {
  return `WITH RECURSIVE ${chainCte(s, 'SELECT $1::bigint, $2::integer')}
     ${rangeRows(s, 'unnest($3::integer[], $4::integer[]) r (lo, hi)')}
     UNION ALL
     SELECT b.* FROM unnest($3::integer[]) r (lo) CROSS JOIN unnest($5::text[]) t (type) CROSS JOIN LATERAL (
       SELECT e.seq, e.body, e.checksum = hashtextextended(e.body, e.segment), e.landmark FROM chain c CROSS JOIN LATERAL (
           SELECT x.segment, x.seq, x.body, x.checksum, x.landmark FROM ${s}.events x
            WHERE x.segment = c.segment AND x.seq >= c.base_count AND x.seq < LEAST(c.upto, r.lo) AND x.landmark = t.type
            ORDER BY x.seq DESC LIMIT 1
         ) e
       ORDER BY e.seq DESC LIMIT 1
     ) b`;
}

/** The load (`$1` the segment, `$2` the count): every row of the chain below the count. @internal */
export function wholeReadText(s: string): string {
  return `WITH RECURSIVE ${chainCte(s, 'SELECT $1::bigint, $2::integer')}
     ${rangeRows(s, '(VALUES (0, $2::integer - 1)) r (lo, hi)')}`;
}

/** The turn starts and ends a fork's window is placed by (each undefined when the log has none). @internal */
export type TurnSeqs = {
  /** The latest turn start at or before an explicit cut. */
  cutStart?: number | undefined;
  latestStart?: number | undefined;
  latestEnd?: number | undefined;
  /** The latest turn start at or before `latestEnd` and the first after it (asked only when the latest turn is open). */
  endStart?: number | undefined;
  afterEnd?: number | undefined;
};

/**
 * The seq ranges a fork at `atSeq` of a log of `count` events reads: the cut's latest turn up to the
 * cut; the log's latest turn (whether it needs repair); for the omitted cut, from the turn holding the
 * latest turn end to the next turn start (the rule's scan and the seed's turn). Merged, ascending. @internal
 */
export function forkWindowRanges(count: number, atSeq: number | 'latest-closed-turn', turns: TurnSeqs): [number, number][] {
  const last = count - 1;
  const ranges: [number, number][] = [];
  if (typeof atSeq === 'number' && Number.isSafeInteger(atSeq) && atSeq >= 0 && atSeq <= last)
    ranges.push([turns.cutStart ?? atSeq, atSeq]);
  if (turns.latestStart !== undefined) ranges.push([turns.latestStart, last]);
  // The last event: where a search of the whole log (the latest title, config) starts.
  if (last >= 0) ranges.push([last, last]);
  if (atSeq === 'latest-closed-turn') {
    const end = turns.latestEnd ?? -1;
    ranges.push([turns.endStart ?? end + 1, turns.afterEnd ?? last]);
  }
  ranges.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [lo, hi] of ranges) {
    if (lo > hi) continue;
    const previous = merged.at(-1);
    if (previous !== undefined && lo <= previous[1] + 1) previous[1] = Math.max(previous[1], hi);
    else merged.push([lo, hi]);
  }
  return merged;
}

/** Statement 1's turn seqs, and 1b's when the omitted cut's rule looks behind an open latest turn. */
async function readTurnSeqs(
  context: PostgresSettings,
  client: PoolClient,
  rows: readonly WindowRow[],
  atSeq: number | 'latest-closed-turn',
  segment: string,
  count: number,
): Promise<TurnSeqs> {
  // Statement 1 answers its three latest rows in order, each present only when found: told apart by
  // landmark and seq (the cut's start is at or before the cut, the latest start is the greatest).
  const starts = rows.filter(([seq, , , landmark]) => seq !== null && landmark === 'turn/start').map(([seq]) => seq as number);
  const cut = typeof atSeq === 'number' ? atSeq : -1;
  const turns: TurnSeqs = {
    cutStart: starts.filter((seq) => seq <= cut).reduce<number | undefined>((a, b) => (a === undefined ? b : Math.max(a, b)), undefined),
    latestStart: starts.length === 0 ? undefined : Math.max(...starts),
    latestEnd: rows.find(([seq, , , landmark]) => seq !== null && landmark === 'turn/end')?.[0] ?? undefined,
  };
  const end = turns.latestEnd ?? -1;
  if (atSeq !== 'latest-closed-turn' || turns.latestStart === undefined) return turns;
  if (turns.latestStart <= end) return { ...turns, endStart: turns.latestStart };
  const around = await client.query<WindowRow>({
    name: statementName(context.schemaName, 'fork_turns_around'),
    text: turnsAroundReadText(context.schema),
    values: [segment, count, end],
    rowMode: 'array',
  });
  const seqs = around.rows.map(([seq]) => seq as number);
  return { ...turns, endStart: seqs.find((seq) => seq <= end), afterEnd: seqs.find((seq) => seq > end) };
}

/**
 * A read of `id` for a fork at `atSeq`: a `WindowedLinesLog` holding the rows the fork reads (and
 * before each of its ranges the latest row of each landmark type), the rest
 * loaded synchronously on first read through `connection`; undefined when it cannot be trusted so (a
 * link written before landmarks, a row without its seal, a header not canonical current, a row
 * missing) — then the caller reads it whole. `SESSION_NOT_FOUND`. @internal
 */
export async function readForkWindow(
  context: PostgresSettings,
  connection: SyncConnection,
  id: string,
  atSeq: number | 'latest-closed-turn',
): Promise<StoredRead | undefined> {
  const client = await context.pool.connect();
  let failure: Error | undefined;
  try {
    // One snapshot for the statements; and the latest-of-a-type lookups as backward ranges of
    // `events_landmark_types` (schema step 7): without statistics (a fresh schema, a bulk import) the
    // planner otherwise prefers a bitmap of every landmark row of the segment, then a sort.
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SET LOCAL enable_bitmapscan = off');
    const read = await readWindow(context, client, connection, id, atSeq);
    await client.query('COMMIT');
    return read;
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release(failure);
  }
}

/** `readForkWindow`'s statements on `client`, inside its transaction. */
async function readWindow(
  context: PostgresSettings,
  client: PoolClient,
  connection: SyncConnection,
  id: string,
  atSeq: number | 'latest-closed-turn',
): Promise<StoredRead | undefined> {
  const s = context.schema;
  const first = await client.query<WindowRow>({
    name: statementName(context.schemaName, 'fork_turns'),
    text: turnSeqsReadText(s),
    values: [id, typeof atSeq === 'number' && Number.isSafeInteger(atSeq) ? atSeq : -1],
    rowMode: 'array',
  });
  const head = first.rows.find(([seq]) => seq === null);
  if (head === undefined) throw notFoundError(id);
  const [segment = '', countText = '', everyLandmark = ''] = (head[3] ?? '').split(':');
  const count = Number(countText);
  const header = everyLandmark === 'true' && head[1] !== null ? canonicalHeader(head[1]) : undefined;
  if (header === undefined) return undefined;
  const ranges = forkWindowRanges(count, atSeq, await readTurnSeqs(context, client, first.rows, atSeq, segment, count));
  const second = await client.query<WindowRow>({
    name: statementName(context.schemaName, 'fork_window'),
    text: windowReadText(s),
    values: [segment, count, ranges.map(([lo]) => lo), ranges.map(([, hi]) => hi), [...LANDMARK_TYPES]],
    rowMode: 'array',
  });
  const lines = new Map<number, string>();
  const landmarks = new Map<number, string>();
  for (const [seq, body, sealed, landmark] of second.rows) {
    if (seq === null || body === null || !isSealedLine(seq, body, sealed)) return undefined;
    lines.set(seq, body);
    if (landmark !== null) landmarks.set(seq, landmark);
  }
  for (const [lo, hi] of ranges) for (let seq = lo; seq <= hi; seq++) if (!lines.has(seq)) return undefined;
  const request = { text: wholeReadText(s), segment, count };
  const log = new WindowedLinesLog(header, count, {
    lines,
    landmarks,
    ranges,
    landmarkTypes: [...LANDMARK_TYPES],
    loadAll: () => loadLinesSync(connection, context.target, id, request),
  });
  return { log, provenance: readProvenance(segment, count) };
}
