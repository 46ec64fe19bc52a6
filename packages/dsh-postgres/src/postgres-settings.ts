/** @module `PostgresSettings`: where and how the PostgreSQL backend stores (pool, schema, lease settings), below every operation. */
import type { Pool } from 'pg';
import type { ReadCache } from './read/read-cache.js';
import type { SyncConnection } from './read/load-lines-sync.js';

/** Where and how the backend stores: the pool, the schema, the lease settings. @internal */
export type PostgresSettings = {
  pool: Pool;
  /** The schema name, validated. */
  schemaName: string;
  /** The schema as a quoted identifier, for SQL text. */
  schema: string;
  /** `host:port` of the server, for error messages. */
  target: string;
  /** How long a holder may stay silent before its lease may be taken over. */
  leaseMs: number;
  /** This host's name in lease rows. */
  hostId: string;
  /** The LISTEN/NOTIFY channel of this schema. */
  channel: string;
  /** The lines of sessions this store read before, extended by later reads (none: every read is whole). */
  readCache?: ReadCache;
  /**
   * How a worker connects to load a windowed read's other lines synchronously (a store that opened its
   * own pool); none (a pool passed in): a fork by id reads the parent whole.
   */
  syncConnection?: SyncConnection;
  /** How `open`'s read chunks a log (tests; default `DEFAULT_READ_CHUNK`): events per chunk, most bytes per chunk. */
  readChunk?: { rows: number; bytes: number };
};
