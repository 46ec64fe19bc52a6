/**
 * A `FastWriter` over one lease generation. Every write is fenced: appends go through the group
 * committer conditional on (session, generation, expected next seq); a writer whose lease was taken
 * over writes nothing and fails with `SESSION_BUSY` (lease lost).
 */
import { encodeHeader, serializeEvent, type SessionEvent } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import type { FastWriter } from 'dsh-session/internal';
import { leaseLostError, notFoundError, type Takeover } from '../lease/lease-errors.js';
import { holderOf } from '../lease/lease-holder.js';
import { collectSegments } from '../read/collect-segments.js';
import { inTransaction } from './in-transaction.js';
import { insertEvents } from './insert-events.js';
import type { PostgresContext } from '../postgres-context.js';
import { readEventLines, readStoredLog } from '../read/read-stored-log.js';
import { storageError } from '../storage-error.js';

type LeaseRow = {
  generation: string;
  next_seq: number;
  holder_host: string | null;
  holder_pid: number | null;
  holder_since: string | null;
  taken_over: Takeover | null;
  live: boolean;
};

/** The writer of session `id` under lease `generation`. @internal */
export function createPostgresWriter(context: PostgresContext, id: string, generation: string): FastWriter {
  const s = context.schema;
  let released = false;
  let lost = false;
  context.renewer.hold(id, generation, () => {
    lost = true;
  });

  const owned = (): void => {
    if (released)
      throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
  };

  /**
   * Why a fenced write of `events` from `fromSeq` matched nothing: the lease was taken over (or the
   * session deleted), or the log moved — or, when the log moved by a first part of these very
   * events, how many of them an earlier attempt already committed (its reply was lost with its
   * connection: the commit was in doubt). Only this generation's writer writes under it, and its
   * attempts are sequential, so those rows are that attempt's.
   */
  const fenceOutcome = async (fromSeq: number, events: readonly SessionEvent[]): Promise<SessionError | number> => {
    const { rows } = await context.pool.query<LeaseRow>(
      `SELECT generation, next_seq, holder_host, holder_pid, holder_since, taken_over, lease_expires > clock_timestamp() AS live FROM ${s}.sessions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) {
      lost = true;
      return notFoundError(id);
    }
    if (row.generation !== generation) {
      lost = true;
      return leaseLostError(
        id,
        fromSeq,
        generation,
        { generation: row.generation, taken_over: row.taken_over, holder: row.live ? holderOf(row) : undefined },
        context.leaseMs,
      );
    }
    const committed = row.next_seq - fromSeq;
    if (committed > 0 && committed <= events.length && (await storedAre(fromSeq, events.slice(0, committed)))) return committed;
    return new SessionError(
      'CORRUPT',
      `Append to ${id}: expected the stored log to end at seq ${String(fromSeq - 1)}, it ends at ${String(row.next_seq - 1)}.`,
      { sessionId: id },
    );
  };

  /** Why a fenced write from `fromSeq` matched nothing (no events of it can have been committed). */
  const refusal = (fromSeq: number): Promise<SessionError> => fenceOutcome(fromSeq, []) as Promise<SessionError>;

  /** Whether the stored rows from `fromSeq` on are exactly the lines of `events`. */
  const storedAre = async (fromSeq: number, events: readonly SessionEvent[]): Promise<boolean> => {
    const lines = await readEventLines(context, id, fromSeq);
    return lines.length === events.length && events.every((event, index) => lines[index] === serializeEvent(event));
  };

  return {
    async read() {
      owned();
      // `open` keeps every event: parsed as the rows arrive.
      const log = await readStoredLog(context, id, 'records');
      if (log === undefined) throw notFoundError(id);
      return log;
    },
    async append(expectedNextSeq, events) {
      owned();
      if (lost) throw await refusal(expectedNextSeq);
      let from = expectedNextSeq;
      let rest = events;
      while (rest.length > 0) {
        if (await context.batcher.submit(id, generation, from, rest)) return;
        const outcome = await fenceOutcome(from, rest);
        if (typeof outcome !== 'number') throw outcome;
        // An earlier attempt committed the first `outcome` events: append only what follows them.
        from += outcome;
        rest = rest.slice(outcome);
      }
    },
    async replace(header, events) {
      owned();
      // A new segment: rows other sessions may refer to are never rewritten.
      const previous = await inTransaction(context.pool, async (client) => {
        const { rows } = await client.query<{ segment: string }>(
          `SELECT segment FROM ${s}.sessions WHERE id = $1 AND generation = $2 FOR UPDATE`,
          [id, generation],
        );
        const old = rows[0]?.segment;
        if (old === undefined) throw await refusal(0);
        const created = await client.query<{ id: string }>(`INSERT INTO ${s}.segments DEFAULT VALUES RETURNING id`);
        const segment = (created.rows[0] as { id: string }).id;
        await insertEvents(client, s, segment, events);
        await client.query(
          `UPDATE ${s}.sessions SET segment = $3, header = $4, next_seq = $5, stamp = stamp + 1, updated_at = clock_timestamp() WHERE id = $1 AND generation = $2`,
          [id, generation, segment, encodeHeader(header), events.length],
        );
        return old;
      });
      await collectSegments(context, previous);
    },
    discardTornTail() {
      // Rows are whole events: a stored log here never has a torn line.
      return Promise.resolve();
    },
    async release() {
      if (released) return;
      released = true;
      context.renewer.drop(id, generation);
      if (lost) return;
      try {
        await context.pool.query(
          // `taken_over` stays: it tells a writer of an older generation why it lost the lease.
          `UPDATE ${s}.sessions SET holder_host = NULL, holder_pid = NULL, holder_since = NULL, holder_start = NULL, holder_pid_namespace = NULL, holder_boot_id = NULL,
                  lease_expires = NULL WHERE id = $1 AND generation = $2`,
          [id, generation],
        );
      } catch (error) {
        // Nothing is lost (every event was durable before release): the lease lapses after leaseMs.
        throw storageError(
          context.target,
          `release the lease on session ${id} (it lapses by itself within ${String(context.leaseMs)} ms)`,
          error,
        );
      }
    },
  };
}
