/**
 * A session's summary parts (`SessionBackend.readSummary`, for `list()`) read by index: the header
 * row, its latest title, its latest config naming a cwd, its last row, and the seqs of its latest
 * turn start and end — never its other rows. Possible when every segment of its chain was written
 * with landmarks (schema step 5); the rows read must still carry their seals (sealed-rows.ts).
 */
import type { StoredSummary } from 'dsh-session/internal';
import { canonicalHeader, isSealedLine } from './sealed-rows.js';
import { notFoundError } from '../lease/lease-errors.js';
import type { PostgresSettings } from '../postgres-settings.js';
import { chainCte, chainRows } from './segment-chain.js';
import { statementName } from '../schema/statement-name.js';

/** `[part, seq, body, extra, flag]`: `h` header (extra: `segment:next_seq`, flag: every segment has landmarks), `l` a line (flag: sealed), `t` the turn seqs (seq: start, extra: end). */
type PartRow = [part: 'h' | 'l' | 't', seq: number | null, body: string | null, extra: string | null, flag: boolean | null];

/**
 * The summary statement (`$1` the session id): the header row, the latest title, the latest config
 * that names a cwd (`"cwd":` unescaped stands in a config line only as its key), the last row, and
 * the latest turn start and end. Landmark rows are reached through their partial index, each link's
 * latest first; the last row by its seq. @internal Exported for the plan test.
 */
export function summaryReadText(s: string): string {
  const latest = (where: string): string =>
    `(SELECT 'l', e.seq, e.body, NULL, e.checksum = hashtextextended(e.body, e.segment) FROM ${chainRows(s, '0', where, true)} ORDER BY e.seq DESC LIMIT 1)`;
  return `WITH RECURSIVE row AS (
       SELECT header, segment, next_seq FROM ${s}.sessions WHERE id = $1
     ), ${chainCte(s, 'SELECT segment, next_seq FROM row')}
     SELECT 'h', NULL::integer, header, segment || ':' || next_seq, (SELECT bool_and(landmarks) FROM chain) FROM row
     UNION ALL
     ${latest(`x.landmark = 'session/title'`)}
     UNION ALL
     ${latest(`x.landmark = 'session/config' AND strpos(x.body, '"cwd":') > 0`)}
     UNION ALL
     SELECT 'l', e.seq, e.body, NULL, e.checksum = hashtextextended(e.body, e.segment)
       FROM ${chainRows(s, '(SELECT next_seq - 1 FROM row)')}
     UNION ALL
     SELECT 't', max(e.seq) FILTER (WHERE e.landmark = 'turn/start'), NULL, (max(e.seq) FILTER (WHERE e.landmark = 'turn/end'))::text, NULL
       FROM ${chainRows(s, '0', `x.landmark IN ('turn/start', 'turn/end')`)}`;
}

/**
 * The summary parts of session `id`; undefined when a segment of its chain predates landmarks, a row
 * read has lost its seal or is not in place, or its header is not the canonical current line (the
 * store then reads the session whole and validates it). `SESSION_NOT_FOUND`. @internal
 */
export async function readSummaryRows(context: PostgresSettings, id: string): Promise<StoredSummary | undefined> {
  // Named: planned once per connection (a list reads one summary per changed session), the text
  // depending only on the schema.
  const statement = { name: statementName(context.schemaName, 'summary'), text: summaryReadText(context.schema) };
  const { rows } = await context.pool.query<PartRow>({ ...statement, values: [id], rowMode: 'array' });
  const head = rows.find(([part]) => part === 'h');
  if (head === undefined) throw notFoundError(id);
  const [, , headerLine, source, everyLandmark] = head;
  const header = everyLandmark === true && headerLine !== null ? canonicalHeader(headerLine) : undefined;
  if (header === undefined) return undefined;
  const count = Number((source ?? '').split(':')[1]);
  const lines = new Map<number, string>();
  let latestTurnStart = -1;
  let latestTurnEnd = -1;
  for (const [part, seq, body, extra, sealed] of rows) {
    if (part === 't') {
      latestTurnStart = seq ?? -1;
      latestTurnEnd = extra === null ? -1 : Number(extra);
    } else if (part === 'l') {
      // As for a whole read (read-stored-log.ts).
      if (seq === null || body === null || !isSealedLine(seq, body, sealed)) return undefined;
      lines.set(seq, body);
    }
  }
  // The last event must have been read (a log whose rows stop short of next_seq is read whole).
  if (count > 0 && !lines.has(count - 1)) return undefined;
  return { header, count, lines, latestTurnStart, latestTurnEnd };
}
