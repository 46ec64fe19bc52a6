/**
 * Group commit across writers: appends submitted while a batch is being committed wait, then go
 * together as one statement — one multi-row INSERT, one commit, one WAL flush — however many
 * sessions they belong to. Each append is conditional on its session's (generation, expected next
 * seq); a stale one is skipped inside the statement while the others commit.
 */
import { serializeEvent, type SessionEvent } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import type { Pool } from 'pg';

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
 * The batch statement: a fenced update of every session row, the insert of their events — all event
 * lines travel as one text parameter (no array to escape or parse), split on the server; session `i`
 * owns lines `first_i .. first_i + count_i - 1` (1-based) and its seqs start at `expected_i` — and a
 * notification each. Prepared once per connection (named): executions skip parsing and planning.
 */
function batchStatement(schema: string): string {
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
       SELECT l.line || E'\\n' AS body, l.n::integer AS n FROM unnest(string_to_array($6::text, E'\\n')) WITH ORDINALITY AS l (line, n)
     ), e AS (
       INSERT INTO ${schema}.events (segment, seq, body, checksum)
       SELECT s.segment, s.expected + (l.n - s.first), l.body, hashtextextended(l.body, s.segment)
         FROM s JOIN l ON l.n >= s.first AND l.n < s.first + s.count
     )
     SELECT s.id, pg_notify($8, s.id || ' ' || s.next_seq) FROM s`;
}

/** Commits appends of many writers in shared statements. @internal */
export class AppendBatcher {
  readonly #pool: Pool;
  readonly #leaseMs: number;
  readonly #channel: string;
  readonly #statement: { name: string; text: string };
  #queue: PendingAppend[] = [];
  #running = false;

  constructor(options: { pool: Pool; schema: string; schemaName: string; leaseMs: number; channel: string }) {
    this.#pool = options.pool;
    this.#leaseMs = options.leaseMs;
    this.#channel = options.channel;
    // The text depends only on the schema, so one name per schema never meets another text.
    this.#statement = { name: `dsh-append-${options.schemaName}`, text: batchStatement(options.schema) };
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
  }

  /** One statement for the whole batch; the ids of the sessions whose fenced update matched. */
  async #commit(batch: readonly PendingAppend[]): Promise<Set<string>> {
    const ids: string[] = [];
    const generations: string[] = [];
    const expected: number[] = [];
    const counts: number[] = [];
    const firsts: number[] = [];
    let lines = '';
    let line = 1;
    for (const pending of batch) {
      ids.push(pending.id);
      generations.push(pending.generation);
      expected.push(pending.expectedNextSeq);
      counts.push(pending.events.length);
      firsts.push(line);
      line += pending.events.length;
      // Each serialized event is one '\n'-terminated line without a raw '\n' inside (JSON escapes it).
      for (const event of pending.events) lines += serializeEvent(event);
    }
    const { rows } = await this.#pool.query<{ id: string }>({
      ...this.#statement,
      values: [ids, generations, expected, counts, firsts, lines, this.#leaseMs, this.#channel],
    });
    return new Set(rows.map((row) => row.id));
  }
}
