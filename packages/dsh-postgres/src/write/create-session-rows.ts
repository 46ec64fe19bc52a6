/**
 * @module Creating a session atomically, in one transaction: its segment, its row (holding the lease), its
 * events. A fork child's segment refers to the source's segment for the inherited prefix instead of
 * copying it — fork cost does not grow with the prefix.
 */
import { encodeHeader, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import type { FastWriter, InheritedRecords } from 'dsh-session/internal';
import type { PoolClient } from 'pg';
import { existsError } from '../lease/lease-errors.js';
import { identityColumns } from '../lease/lease-holder.js';
import { inTransaction } from './in-transaction.js';
import { insertEvents } from './insert-events.js';
import type { PostgresContext } from '../postgres-context.js';
import { writtenSegmentOf } from '../segment-provenance.js';
import { createPostgresWriter } from './postgres-writer.js';

/**
 * The segment (and how many of its events) a child can refer to, as the provenance of its inherited
 * records names it: the live source's current segment, or the segment a cold read came from. Locked
 * against collection until the transaction ends; a reference that vanished (source deleted
 * meanwhile), or none, gives undefined and the prefix is copied.
 */
async function baseOf(
  client: PoolClient,
  schema: string,
  inherited: InheritedRecords | undefined,
): Promise<{ segment: string; count: number } | undefined> {
  if (inherited === undefined || inherited.count <= 0) return undefined;
  const named = await writtenSegmentOf(client, schema, inherited.provenance);
  if (named === undefined) return undefined;
  const { segment, written } = named;
  const locked = await client.query(`SELECT 1 FROM ${schema}.segments WHERE id = $1 FOR KEY SHARE`, [segment]);
  if (locked.rowCount === 0) return undefined;
  // A live source may not have made every inherited event durable yet: refer to what is written.
  const count = Math.min(inherited.count, written);
  return count > 0 ? { segment, count } : undefined;
}

/** The error for a fork whose Idempotency-Key another child holds (the unique index refused it), else undefined. */
function forkKeyTaken(error: unknown, key: string | null): SessionError | undefined {
  const { code, constraint } = error as { code?: string; constraint?: string };
  if (key === null || code !== '23505' || constraint !== 'sessions_fork_key') return undefined;
  return new SessionError(
    'SESSION_EXISTS',
    `A fork under Idempotency-Key ${JSON.stringify(key)} already exists (created by another request): read it instead of forking again.`,
    {
      cause: error,
    },
  );
}

/**
 * Creates session `id` with `header`, its `inherited` events (referred to in the source's segment as
 * far as they are written there, else inserted) and `events` after them, holding its lease;
 * `SESSION_EXISTS` when taken. @internal
 */
export async function createSessionRows(
  context: PostgresContext,
  id: string,
  header: SessionHeader,
  events: readonly SessionEvent[],
  inherited: InheritedRecords | undefined,
  now: () => number,
): Promise<FastWriter> {
  const s = context.schema;
  const generation = await inTransaction(context.pool, async (client) => {
    const base = await baseOf(client, s, inherited);
    const segment = await client.query<{ id: string }>(`INSERT INTO ${s}.segments (base, base_count) VALUES ($1, $2) RETURNING id`, [
      base?.segment ?? null,
      base?.count ?? 0,
    ]);
    const segmentId = (segment.rows[0] as { id: string }).id;
    const forkKey = header.forkRequest?.key ?? null;
    const inserted = await client
      .query<{ generation: string }>(
        `INSERT INTO ${s}.sessions (id, segment, header, next_seq, generation, holder_host, holder_pid, holder_since, lease_expires, fork_key,
                                    holder_start, holder_pid_namespace, holder_boot_id)
         VALUES ($1, $2, $3, $4, 1, $5, $6, $7, clock_timestamp() + $8 * interval '1 millisecond', $9, $10, $11, $12)
         ON CONFLICT (id) DO NOTHING RETURNING generation`,
        [
          id,
          segmentId,
          encodeHeader(header),
          (inherited?.count ?? 0) + events.length,
          context.hostId,
          process.pid,
          now(),
          context.leaseMs,
          forkKey,
          ...identityColumns(),
        ],
      )
      .catch((error: unknown) => {
        throw forkKeyTaken(error, forkKey) ?? error;
      });
    const created = inserted.rows[0]?.generation;
    if (created === undefined) throw existsError(id);
    // Inherited events the child cannot refer to (none, or a live source's not yet written) are inserted.
    const referred = base?.count ?? 0;
    const copied = inherited === undefined || referred >= inherited.count ? [] : inherited.events().slice(referred);
    await insertEvents(client, s, segmentId, copied.length === 0 ? events : [...copied, ...events]);
    return created;
  });
  return createPostgresWriter(context, id, generation);
}
