/**
 * A `SessionWriter` over one lease generation. Every write is fenced: appends go through the group
 * committer conditional on (session, generation, expected next seq); a writer whose lease was taken
 * over writes nothing and fails with `SESSION_BUSY` (lease lost).
 */
import { encodeHeader } from 'dsh-codec';
import { SessionError, type SessionWriter } from 'dsh-session';
import { holderOf, leaseLostError, notFoundError } from './lease-errors.js';
import { collectSegments } from './collect-segments.js';
import { inTransaction } from './in-transaction.js';
import { insertEvents } from './insert-events.js';
import type { PostgresContext } from './postgres-context.js';
import { readStoredLog } from './read-stored-log.js';
import { storageError } from './storage-error.js';

type LeaseRow = { generation: string; next_seq: number; holder_host: string | null; holder_pid: number | null; holder_since: string | null; live: boolean };

/** The writer of session `id` under lease `generation`. @internal */
export function createPostgresWriter(context: PostgresContext, id: string, generation: string): SessionWriter {
  const s = context.schema;
  let released = false;
  let lost = false;
  context.renewer.hold(id, generation, () => {
    lost = true;
  });

  const owned = (): void => {
    if (released) throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
  };

  /** Why a fenced write matched nothing: the lease was taken over (or the session deleted), or the log moved. */
  const refusal = async (fromSeq: number): Promise<SessionError> => {
    const { rows } = await context.pool.query<LeaseRow>(
      `SELECT generation, next_seq, holder_host, holder_pid, holder_since, lease_expires > clock_timestamp() AS live FROM ${s}.sessions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) {
      lost = true;
      return notFoundError(id);
    }
    if (row.generation !== generation) {
      lost = true;
      return leaseLostError(id, fromSeq, row.live ? holderOf(row) : undefined);
    }
    return new SessionError(
      'CORRUPT',
      `Append to ${id}: expected the stored log to end at seq ${String(fromSeq - 1)}, it ends at ${String(row.next_seq - 1)}.`,
      { sessionId: id },
    );
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
      if (events.length === 0) return;
      const applied = await context.batcher.submit(id, generation, expectedNextSeq, events);
      if (!applied) throw await refusal(expectedNextSeq);
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
          `UPDATE ${s}.sessions SET holder_host = NULL, holder_pid = NULL, holder_since = NULL, lease_expires = NULL WHERE id = $1 AND generation = $2`,
          [id, generation],
        );
      } catch (error) {
        // Nothing is lost (every event was durable before release): the lease lapses after leaseMs.
        throw storageError(context.target, `release the lease on session ${id} (it lapses by itself within ${String(context.leaseMs)} ms)`, error);
      }
    },
  };
}
