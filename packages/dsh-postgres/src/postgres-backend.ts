/**
 * @module The `SessionBackend` on PostgreSQL: sessions, segments and events in one schema; leases with a
 * generation as fencing token; group-committed appends; forks that refer to their parent's segment.
 */
import type { SessionBackend, StoredSessionRef } from 'dsh-session';
import { asSessionBackend } from 'dsh-session/internal';
import { acquireLease } from './lease/acquire-lease.js';
import { collectSegments } from './read/collect-segments.js';
import { createSessionRows } from './write/create-session-rows.js';
import { findForkChild } from './read/find-fork-child.js';
import { busyError, notFoundError } from './lease/lease-errors.js';
import { holderOf } from './lease/lease-holder.js';
import type { PostgresContext } from './postgres-context.js';
import { readForkWindow } from './read/read-fork-window.js';
import { readStoredLog } from './read/read-stored-log.js';
import { readSummaryRows } from './read/read-summary-rows.js';
import { heldProvenance } from './segment-provenance.js';
import { SessionWatcher } from './watch/session-watcher.js';

type HolderRow = { holder_host: string | null; holder_pid: number | null; holder_since: string | null };

/** A `SessionBackend` over `context` (dsh's fast paths behind it); `close` ends the pool only when `ownsPool`. @internal */
export function createPostgresBackend(
  context: PostgresContext,
  options: { now: () => number; onClose: () => Promise<void> },
): SessionBackend {
  const s = context.schema;
  const { now } = options;
  const watcher = new SessionWatcher(context);
  return asSessionBackend({
    create: (id, header, events, inherited) => createSessionRows(context, id, header, events, inherited, now),
    acquire: (id) => acquireLease(context, id, now),
    async read(id) {
      const log = await readStoredLog(context, id);
      if (log === undefined) throw notFoundError(id);
      return log;
    },
    async readForFork(id, atSeq) {
      // A store that read the session before extends its cached lines; one that cannot load
      // synchronously (a pool passed in) reads it whole.
      const windowed =
        context.syncConnection === undefined || context.readCache?.get(id) !== undefined
          ? undefined
          : await readForkWindow(context, context.syncConnection, id, atSeq);
      const log = windowed ?? (await readStoredLog(context, id));
      if (log === undefined) throw notFoundError(id);
      return log;
    },
    heldProvenance,
    async exists(id) {
      const { rowCount } = await context.pool.query(`SELECT 1 FROM ${s}.sessions WHERE id = $1`, [id]);
      return rowCount === 1;
    },
    async list() {
      // Whether each lease is held, in the same read: no round trip per session for list()'s `busy`.
      const { rows } = await context.pool.query<{ id: string; segment: string; stamp: string; held: boolean }>(
        `SELECT id, segment, stamp, COALESCE(lease_expires > clock_timestamp(), false) AS held FROM ${s}.sessions`,
      );
      return rows.map((row): StoredSessionRef => ({ id: row.id, stamp: `${row.segment}:${row.stamp}`, held: row.held }));
    },
    async holder(id) {
      const { rows } = await context.pool.query<HolderRow>(
        `SELECT holder_host, holder_pid, holder_since FROM ${s}.sessions WHERE id = $1 AND lease_expires > clock_timestamp()`,
        [id],
      );
      return rows[0] === undefined ? undefined : holderOf(rows[0]);
    },
    async delete(id) {
      const deleted = await context.pool.query<{ segment: string }>(
        `DELETE FROM ${s}.sessions WHERE id = $1 AND (holder_host IS NULL OR lease_expires <= clock_timestamp()) RETURNING segment`,
        [id],
      );
      context.readCache?.delete(id);
      const segment = deleted.rows[0]?.segment;
      if (segment === undefined) {
        const { rows } = await context.pool.query<HolderRow>(
          `SELECT holder_host, holder_pid, holder_since FROM ${s}.sessions WHERE id = $1`,
          [id],
        );
        if (rows[0] === undefined) throw notFoundError(id);
        throw busyError(id, holderOf(rows[0]) ?? { host: 'unknown', pid: 0, since: now() });
      }
      // Descendants keep the segments they refer to; only what nobody refers to goes.
      await collectSegments(context, segment);
    },
    watch: (id, fromSeq, listener) => watcher.watch(id, fromSeq, listener),
    findForkChild: (key) => findForkChild(context, key),
    readSummary: (id) => readSummaryRows(context, id),
    async close() {
      await watcher.close();
      await options.onClose();
    },
  });
}
