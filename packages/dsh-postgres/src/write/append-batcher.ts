/**
 * Group commit across writers: appends submitted while a batch is being committed wait, then go
 * together as one statement — one multi-row INSERT, one commit, one WAL flush — however many
 * sessions they belong to. Each append is conditional on its session's (generation, expected next
 * seq); a stale one is skipped inside the statement while the others commit. Batches follow each
 * other on one connection held while they do (no pool checkout per batch).
 */
import { serializeEvent, type SessionEvent } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import type { Pool } from 'pg';
import { HeldConnection } from '../lease/held-connection.js';
import { landmarkOf } from '../read/landmarks.js';
import { statementName } from '../schema/statement-name.js';

/** One session's pending batch. */
type PendingAppend = {
  id: string;
  generation: string;
  expectedNextSeq: number;
  events: readonly SessionEvent[];
  resolve: (applied: boolean) => void;
  reject: (error: unknown) => void;
};

/**
 * What ends each line in the text parameter, after the line's own '\n': ASCII RS, which a serialized
 * event never holds raw (JSON escapes every control character), so the server splits the text into
 * the lines themselves — no '\n' to put back, no copy per row.
 */
const SEPARATOR = '\u001e';

/** A named statement: parsed and planned once per connection. */
type Statement = { name: string; text: string };

/**
 * The batch statement of one session (the usual case: one session's writers share a batch): the
 * fenced update of its row, the insert of its events — all lines as one text parameter (no array to
 * escape or parse), split on the server at each separator, line `n` (1-based) being seq
 * `expected + n - 1`; the text ends with a separator, so its last piece is empty and left out; each
 * line's landmark (landmarks.ts; empty for none) the same way in a second text, piece for piece — and
 * its notification. The statement is the INSERT itself, so no row comes back to parse: its row count
 * says whether the fence matched (the batch's events) or not (0).
 */
function oneSessionStatement(schema: string): string {
  return `WITH s AS (
       UPDATE ${schema}.sessions t
          SET next_seq = t.next_seq + $4, stamp = t.stamp + 1, updated_at = clock_timestamp(),
              lease_expires = clock_timestamp() + $6 * interval '1 millisecond'
        WHERE t.id = $1 AND t.generation = $2 AND t.next_seq = $3
       RETURNING t.segment, t.next_seq
     ), notified AS (
       SELECT pg_notify($7, $1 || ' ' || s.next_seq) FROM s
     )
     INSERT INTO ${schema}.events (segment, seq, body, checksum, landmark)
     SELECT s.segment, $3 + (l.n - 1)::integer, l.line, hashtextextended(l.line, s.segment), NULLIF(l.landmark, '')
       FROM s, notified, unnest(string_to_array($5::text, E'\\x1e'), string_to_array($8::text, E'\\x1e')) WITH ORDINALITY AS l (line, landmark, n)
      WHERE l.n <= $4`;
}

/**
 * The batch statement of several sessions: as above for each, the lines of session `i` being
 * `first_i .. first_i + count_i - 1` of the one text parameter and its seqs starting at `expected_i`.
 */
function manySessionsStatement(schema: string): string {
  return `WITH b AS (
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::integer[], $5::integer[]) AS b (id, generation, expected, count, first)
     ), s AS (
       UPDATE ${schema}.sessions t
          SET next_seq = t.next_seq + b.count, stamp = t.stamp + 1, updated_at = clock_timestamp(),
              lease_expires = clock_timestamp() + $7 * interval '1 millisecond'
         FROM b
        WHERE t.id = b.id AND t.generation = b.generation AND t.next_seq = b.expected
       RETURNING t.id, t.segment, t.next_seq, b.expected, b.first, b.count
     ), l AS (
       SELECT l.line AS body, NULLIF(l.landmark, '') AS landmark, l.n::integer AS n
         FROM unnest(string_to_array($6::text, E'\\x1e'), string_to_array($9::text, E'\\x1e')) WITH ORDINALITY AS l (line, landmark, n)
     ), e AS (
       INSERT INTO ${schema}.events (segment, seq, body, checksum, landmark)
       SELECT s.segment, s.expected + (l.n - s.first), l.body, hashtextextended(l.body, s.segment), l.landmark
         FROM s JOIN l ON l.n >= s.first AND l.n < s.first + s.count
     )
     SELECT s.id, pg_notify($8, s.id || ' ' || s.next_seq) FROM s`;
}

/** Commits appends of many writers in shared statements. @internal */
export class AppendBatcher {
  readonly #connection: HeldConnection;
  readonly #leaseMs: number;
  readonly #channel: string;
  readonly #one: Statement;
  readonly #many: Statement;
  #queue: PendingAppend[] = [];
  #running = false;

  constructor(options: { pool: Pool; schema: string; schemaName: string; leaseMs: number; channel: string }) {
    this.#connection = new HeldConnection(options.pool);
    this.#leaseMs = options.leaseMs;
    this.#channel = options.channel;
    // The texts depend only on the schema, so one name per schema never meets another text.
    this.#one = { name: statementName(options.schemaName, 'append_one'), text: oneSessionStatement(options.schema) };
    this.#many = { name: statementName(options.schemaName, 'append_many'), text: manySessionsStatement(options.schema) };
  }

  /**
   * Resolves true once the events are committed, false when the session's generation or next seq did
   * not match (nothing written). `events` carry seqs `expectedNextSeq, expectedNextSeq + 1, …`.
   */
  submit(id: string, generation: string, expectedNextSeq: number, events: readonly SessionEvent[]): Promise<boolean> {
    const gap = events.findIndex((event, index) => event.seq !== expectedNextSeq + index);
    if (gap !== -1) {
      const message = `Append to ${id}: expected the batch's seqs to run from ${String(expectedNextSeq)} without gaps, found seq ${String(events[gap]?.seq)} at position ${String(gap)}.`;
      return Promise.reject(new SessionError('CORRUPT', message, { sessionId: id }));
    }
    return new Promise<boolean>((resolve, reject) => {
      this.#queue.push({ id, generation, expectedNextSeq, events, resolve, reject });
      if (!this.#running) {
        this.#running = true;
        // Appends made in this same tick join the first batch.
        process.nextTick(() => void this.#run());
      }
    });
  }

  async #run(): Promise<void> {
    while (this.#queue.length > 0) {
      // One append per session per statement (a Session never has two in flight; this keeps it so).
      const batch: PendingAppend[] = [];
      const later: PendingAppend[] = [];
      const seen = new Set<string>();
      for (const pending of this.#queue) {
        (seen.has(pending.id) ? later : batch).push(pending);
        seen.add(pending.id);
      }
      this.#queue = later;
      try {
        const applied = await this.#commit(batch);
        for (const pending of batch) pending.resolve(applied.has(pending.id));
      } catch (error) {
        for (const pending of batch) pending.reject(error);
      }
    }
    this.#running = false;
    // Batches run back to back on one connection; it goes back to the pool once none follows.
    this.#connection.releaseWhenIdle(() => this.#running);
  }

  /** One statement for the whole batch; the ids of the sessions whose fenced update matched. */
  async #commit(batch: readonly PendingAppend[]): Promise<Set<string>> {
    const only = batch.length === 1 ? batch[0] : undefined;
    const query = only === undefined ? this.#manySessions(batch) : this.#oneSession(only);
    const client = await this.#connection.client();
    let result: { rowCount: number | null; rows: { id?: string }[] };
    try {
      result = await client.query<{ id?: string }>(query);
    } catch (error) {
      this.#connection.failed(client, error);
      throw error;
    }
    // The one-session statement returns no rows: it inserted the batch's events, or nothing.
    if (only !== undefined) return new Set(this.#applied(only, result.rowCount) ? [only.id] : []);
    return new Set(result.rows.map((row) => row.id as string));
  }

  /** Whether the one-session statement applied: every event stored (true) or the fence did not match (false). */
  #applied(pending: PendingAppend, rowCount: number | null): boolean {
    if (rowCount === 0) return false;
    if (rowCount === pending.events.length) return true;
    const message = `Append to ${pending.id}: expected ${String(pending.events.length)} event rows from seq ${String(pending.expectedNextSeq)} to be stored, the statement stored ${String(rowCount)}.`;
    throw new SessionError('CORRUPT', message, { sessionId: pending.id });
  }

  #oneSession(pending: PendingAppend): Statement & { values: unknown[] } {
    let lines = '';
    let landmarks = '';
    for (const event of pending.events) {
      lines += serializeEvent(event) + SEPARATOR;
      landmarks += (landmarkOf(event.type) ?? '') + SEPARATOR;
    }
    const values = [
      pending.id,
      pending.generation,
      pending.expectedNextSeq,
      pending.events.length,
      lines,
      this.#leaseMs,
      this.#channel,
      landmarks,
    ];
    return { ...this.#one, values };
  }

  #manySessions(batch: readonly PendingAppend[]): Statement & { values: unknown[] } {
    const ids: string[] = [];
    const generations: string[] = [];
    const expected: number[] = [];
    const counts: number[] = [];
    const firsts: number[] = [];
    let lines = '';
    let landmarks = '';
    let line = 1;
    for (const pending of batch) {
      ids.push(pending.id);
      generations.push(pending.generation);
      expected.push(pending.expectedNextSeq);
      counts.push(pending.events.length);
      firsts.push(line);
      line += pending.events.length;
      for (const event of pending.events) {
        lines += serializeEvent(event) + SEPARATOR;
        landmarks += (landmarkOf(event.type) ?? '') + SEPARATOR;
      }
    }
    return { ...this.#many, values: [ids, generations, expected, counts, firsts, lines, this.#leaseMs, this.#channel, landmarks] };
  }
}
