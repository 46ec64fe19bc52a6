/**
 * Group commit across writers: appends submitted while a batch is being committed wait, then go
 * together as one statement — one multi-row INSERT, one commit, one WAL flush — however many
 * sessions they belong to. Each append is conditional on its session's (generation, expected next
 * seq); a stale one is skipped inside the statement while the others commit.
 */
import { serializeEvent, type SessionEvent } from 'dsh-codec';
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

/** Commits appends of many writers in shared statements. @internal */
export class AppendBatcher {
  readonly #pool: Pool;
  readonly #schema: string;
  readonly #leaseMs: number;
  readonly #channel: string;
  #queue: PendingAppend[] = [];
  #running = false;

  constructor(options: { pool: Pool; schema: string; leaseMs: number; channel: string }) {
    this.#pool = options.pool;
    this.#schema = options.schema;
    this.#leaseMs = options.leaseMs;
    this.#channel = options.channel;
  }

  /** Resolves true once the events are committed, false when the session's generation or next seq did not match (nothing written). */
  submit(id: string, generation: string, expectedNextSeq: number, events: readonly SessionEvent[]): Promise<boolean> {
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

  /** One statement: fenced update of every session row, the insert of their events, a notification each. */
  async #commit(batch: readonly PendingAppend[]): Promise<Set<string>> {
    const ids: string[] = [];
    const generations: string[] = [];
    const expected: number[] = [];
    const counts: number[] = [];
    const eventIds: string[] = [];
    const seqs: number[] = [];
    const bodies: string[] = [];
    for (const pending of batch) {
      ids.push(pending.id);
      generations.push(pending.generation);
      expected.push(pending.expectedNextSeq);
      counts.push(pending.events.length);
      for (const event of pending.events) {
        eventIds.push(pending.id);
        seqs.push(event.seq);
        bodies.push(serializeEvent(event));
      }
    }
    const s = this.#schema;
    const { rows } = await this.#pool.query<{ id: string }>(
      `WITH b AS (
         SELECT * FROM unnest($1::text[], $2::bigint[], $3::integer[], $4::integer[]) AS b (id, generation, expected, count)
       ), s AS (
         UPDATE ${s}.sessions t
            SET next_seq = t.next_seq + b.count, stamp = t.stamp + 1, updated_at = clock_timestamp(),
                lease_expires = clock_timestamp() + $8 * interval '1 millisecond'
           FROM b
          WHERE t.id = b.id AND t.generation = b.generation AND t.next_seq = b.expected
         RETURNING t.id, t.segment, t.next_seq
       ), e AS (
         INSERT INTO ${s}.events (segment, seq, body, checksum)
         SELECT s.segment, e.seq, e.body, hashtextextended(e.body, 0)
           FROM s JOIN unnest($5::text[], $6::integer[], $7::text[]) AS e (id, seq, body) ON e.id = s.id
       )
       SELECT s.id, pg_notify($9, s.id || ' ' || s.next_seq) FROM s`,
      [ids, generations, expected, counts, eventIds, seqs, bodies, this.#leaseMs, this.#channel],
    );
    return new Set(rows.map((row) => row.id));
  }
}
