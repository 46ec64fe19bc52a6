/**
 * Taking a session's single-writer lease: one fenced UPDATE that bumps the generation when nobody
 * holds the lease, or the holder did not renew it before its expiry, or the holder is known to be a
 * process of this host that no longer exists (a crash is taken over at once instead of after
 * `leaseMs`; only for a holder that recorded this process's PID namespace and boot, lease-holder.ts).
 * A generation taken from a holder that had not released it records how (`taken_over`), so that
 * holder's writer is told the true reason when its next write is refused.
 */
import type { FastWriter } from 'dsh-session/internal';
import { busyError, notFoundError } from './lease-errors.js';
import { HOLDER_COLUMNS, holderIsGone, holderOf, identityColumns, type HolderRow } from './lease-holder.js';
import type { PostgresContext } from '../postgres-context.js';
import { createPostgresWriter } from '../write/postgres-writer.js';

type LeaseRow = HolderRow & { generation: string; live: boolean };

/** Acquires the lease of `id`: `SESSION_NOT_FOUND`, or `SESSION_BUSY` naming a live holder. @internal */
export async function acquireLease(context: PostgresContext, id: string, now: () => number): Promise<FastWriter> {
  const s = context.schema;
  // The generation of a gone same-host holder we may replace; -1 matches no row.
  let goneGeneration = '-1';
  for (let attempt = 0; attempt < 3; attempt++) {
    // SET reads the row as it was: the takeover record describes the holder being replaced.
    const taken = await context.pool.query<{ generation: string }>(
      `UPDATE ${s}.sessions
          SET taken_over = CASE WHEN holder_host IS NULL THEN NULL ELSE jsonb_build_object(
                'generation', generation, 'reason', CASE WHEN lease_expires <= clock_timestamp() THEN 'expired' ELSE 'gone' END,
                'holderPid', holder_pid, 'host', $2::text, 'pid', $3::integer, 'at', $4::bigint) END,
              generation = generation + 1, holder_host = $2, holder_pid = $3, holder_since = $4,
              holder_start = $7, holder_pid_namespace = $8, holder_boot_id = $9,
              lease_expires = clock_timestamp() + $5 * interval '1 millisecond'
        WHERE id = $1 AND (holder_host IS NULL OR lease_expires <= clock_timestamp() OR generation = $6)
       RETURNING generation`,
      [id, context.hostId, process.pid, now(), context.leaseMs, goneGeneration, ...identityColumns()],
    );
    const generation = taken.rows[0]?.generation;
    if (generation !== undefined) return createPostgresWriter(context, id, generation);
    const { rows } = await context.pool.query<LeaseRow>(
      `SELECT generation, ${HOLDER_COLUMNS}, lease_expires > clock_timestamp() AS live FROM ${s}.sessions WHERE id = $1`,
      [id],
    );
    const row = rows[0];
    if (row === undefined) throw notFoundError(id);
    const holder = holderOf(row);
    // Released or expired between the two statements: try again.
    if (holder === undefined || !row.live) continue;
    if (holderIsGone(row, context.hostId)) {
      goneGeneration = row.generation;
      continue;
    }
    throw busyError(id, holder);
  }
  const { rows } = await context.pool.query<LeaseRow>(
    `SELECT generation, ${HOLDER_COLUMNS}, true AS live FROM ${s}.sessions WHERE id = $1`,
    [id],
  );
  const row = rows[0];
  if (row === undefined) throw notFoundError(id);
  throw busyError(id, holderOf(row) ?? { host: 'unknown', pid: 0, since: now() });
}
