/**
 * Taking a session's single-writer lease: one fenced UPDATE that bumps the generation when nobody
 * holds the lease, or the holder stayed silent past its expiry, or the holder is a process of this
 * same host that no longer exists (a crash is taken over at once instead of after `leaseMs`).
 */
import type { SessionWriter } from 'dsh-session';
import { busyError, holderOf, notFoundError } from './lease-errors.js';
import type { PostgresContext } from './postgres-context.js';
import { createPostgresWriter } from './postgres-writer.js';

/** False when `pid` is known not to exist on this machine. */
function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

type HolderRow = { generation: string; holder_host: string | null; holder_pid: number | null; holder_since: string | null; live: boolean };

/** Acquires the lease of `id`: `SESSION_NOT_FOUND`, or `SESSION_BUSY` naming a live holder. @internal */
export async function acquireLease(context: PostgresContext, id: string, now: () => number): Promise<SessionWriter> {
  const s = context.schema;
  // The generation of a dead same-host holder we may replace; -1 matches no row.
  let deadGeneration = '-1';
  for (let attempt = 0; attempt < 3; attempt++) {
    const taken = await context.pool.query<{ generation: string }>(
      `UPDATE ${s}.sessions
          SET generation = generation + 1, holder_host = $2, holder_pid = $3, holder_since = $4,
              lease_expires = clock_timestamp() + $5 * interval '1 millisecond'
        WHERE id = $1 AND (holder_host IS NULL OR lease_expires <= clock_timestamp() OR generation = $6)
       RETURNING generation`,
      [id, context.hostId, process.pid, now(), context.leaseMs, deadGeneration],
    );
    const generation = taken.rows[0]?.generation;
    if (generation !== undefined) return createPostgresWriter(context, id, generation);
    const { rows } = await context.pool.query<HolderRow>(
      `SELECT generation, holder_host, holder_pid, holder_since, lease_expires > clock_timestamp() AS live FROM ${s}.sessions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) throw notFoundError(id);
    const holder = holderOf(row);
    // Released or expired between the two statements: try again.
    if (holder === undefined || !row.live) continue;
    if (holder.host === context.hostId && holder.pid !== process.pid && !processExists(holder.pid)) {
      deadGeneration = row.generation;
      continue;
    }
    throw busyError(id, holder);
  }
  const { rows } = await context.pool.query<HolderRow>(
    `SELECT generation, holder_host, holder_pid, holder_since, true AS live FROM ${s}.sessions WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) throw notFoundError(id);
  throw busyError(id, holderOf(row) ?? { host: 'unknown', pid: 0, since: now() });
}
