/**
 * @module `openPostgresStore` (SPEC §14): a `SessionStore` on PostgreSQL, over a given pool or its own.
 */
import { hostname } from 'node:os';
import { createSessionStore, SessionError, type SessionStore } from 'dsh-session';
import pg from 'pg';
import { AppendBatcher } from './write/append-batcher.js';
import { LeaseRenewer } from './lease/lease-renewer.js';
import { migrateSchema } from './schema/migrate-schema.js';
import { createPostgresBackend } from './postgres-backend.js';
import type { PostgresContext } from './postgres-context.js';
import type { PostgresSettings } from './postgres-settings.js';
import { ReadCache } from './read/read-cache.js';
import { channelOf, quoteSchema } from './schema/schema-name.js';
import { OWN_POOL_SETTINGS } from './own-pool-settings.js';
import { describeTarget, storageError } from './storage-error.js';

/** Options of `openPostgresStore`. */
export type PostgresStoreOptions = {
  /** `postgres://user:password@host:port/database[?schema=NAME]`; default `$DSH_DATABASE_URL`, else libpq's `PG*` variables. */
  connectionString?: string;
  /** A pool to use instead (it is not ended by `close()`). */
  pool?: pg.Pool;
  /** The schema holding dsh's tables (created when missing); default the URL's `?schema=`, else `dsh`. */
  schema?: string;
  /** How long a holder may stay silent before another host takes its session over; default 10 000 ms. */
  leaseMs?: number;
  /** This host's name in lease rows and busy errors; default the machine's host name. */
  hostId?: string;
  /**
   * How much of the sessions it read this store keeps (in characters of their stored lines, about
   * bytes for most logs), so a later observe, list or fork of the same session transfers only the rows
   * written since; least recently read first out. Default 64 MiB; 0 reads every session whole each time.
   */
  readCacheBytes?: number;
  /** Clock for event times (tests). */
  now?: () => number;
};

const DEFAULT_LEASE_MS = 10_000;
const DEFAULT_READ_CACHE_BYTES = 64 * 1024 * 1024;

/** A `?schema=NAME` parameter of a postgres:// URL is dsh's, not the server's: taken out of the URL. */
function splitSchemaParameter(connectionString: string | undefined): { connectionString?: string; schema?: string } {
  if (connectionString === undefined) return {};
  let url: URL;
  try {
    url = new URL(connectionString);
  } catch {
    return { connectionString };
  }
  const schema = url.searchParams.get('schema');
  if (schema === null) return { connectionString };
  url.searchParams.delete('schema');
  return { connectionString: url.toString(), schema };
}

/**
 * Opens a `SessionStore` on PostgreSQL (SPEC §14): tables created and migrated on open, one writer per
 * session across hosts, group-committed appends, forks that copy nothing. `STORAGE_ERROR` naming the
 * server's host and port when it cannot be reached.
 */
export async function openPostgresStore(options: PostgresStoreOptions = {}): Promise<SessionStore> {
  const named = splitSchemaParameter(options.connectionString ?? process.env.DSH_DATABASE_URL);
  const connectionString = named.connectionString;
  const schemaName = options.schema ?? named.schema ?? 'dsh';
  const schema = quoteSchema(schemaName);
  const leaseMs = options.leaseMs ?? DEFAULT_LEASE_MS;
  if (!Number.isInteger(leaseMs) || leaseMs < 100) {
    throw new SessionError(
      'STORAGE_ERROR',
      `Invalid leaseMs: expected an integer of at least 100 milliseconds, received ${String(leaseMs)}.`,
    );
  }
  const readCacheBytes = options.readCacheBytes ?? DEFAULT_READ_CACHE_BYTES;
  if (!Number.isSafeInteger(readCacheBytes) || readCacheBytes < 0) {
    throw new SessionError('STORAGE_ERROR', `Invalid readCacheBytes: expected a non-negative integer, received ${String(readCacheBytes)}.`);
  }
  const ownsPool = options.pool === undefined;
  const pool = options.pool ?? new pg.Pool({ ...(connectionString === undefined ? {} : { connectionString }), ...OWN_POOL_SETTINGS });
  const poolOptions = (pool as unknown as { options: { connectionString?: string; host?: string; port?: number } }).options;
  const target = describeTarget(poolOptions);
  // An idle connection dropped by the server must not crash the process; the next query reconnects.
  if (ownsPool) pool.on('error', () => undefined);
  const settings: PostgresSettings = {
    pool,
    schemaName,
    schema,
    target,
    leaseMs,
    hostId: options.hostId ?? hostname(),
    channel: channelOf(schemaName),
    ...(readCacheBytes === 0 ? {} : { readCache: new ReadCache(readCacheBytes) }),
    // A fork's windowed read loads the rest through a connection of its own, made as this pool's are.
    ...(ownsPool
      ? { syncConnection: { ...(connectionString === undefined ? {} : { connectionString }), options: OWN_POOL_SETTINGS.options } }
      : {}),
  };
  try {
    const client = await pool.connect();
    try {
      await migrateSchema(client, schemaName, schema);
    } finally {
      client.release();
    }
  } catch (error) {
    if (ownsPool) await pool.end().catch(() => undefined);
    throw storageError(target, `open the dsh schema ${schemaName}`, error);
  }
  const renewer = new LeaseRenewer(settings);
  const context: PostgresContext = { ...settings, batcher: new AppendBatcher(settings), renewer };
  const now = options.now ?? Date.now;
  const backend = createPostgresBackend(context, {
    now,
    onClose: async () => {
      renewer.stop();
      settings.readCache?.clear();
      if (ownsPool) await pool.end();
    },
  });
  return createSessionStore({ backend, now });
}
