import pg from 'pg';
import { OWN_POOL_SETTINGS } from '../own-pool-settings.js';

/** A real pool whose connections count the queries they run and the rows those queries bring back. */
export type CountingPool = {
  pool: pg.Pool;
  /** Queries sent, of any kind. */
  queries: () => number;
  /**
   * Rows of streamed queries (a `pg.Query`: the whole read of a session), counted as they arrive; a
   * chunk of a chunked read (`[first, lines, sealed, 'count']`) counts as the event rows it holds.
   */
  streamedRows: () => number;
  /** Rows of every query: streamed ones and those answered with a result. */
  rows: () => number;
};

/** How many event rows a streamed row stands for: a chunk's count, else one. */
function eventRowsIn(row: unknown[]): number {
  return Array.isArray(row) && row[0] !== null && typeof row[3] === 'string' ? Number(row[3]) : 1;
}

export function countingPool(connectionString: string): CountingPool {
  // JIT off, as the README asks of a pool passed to the store (and as the store's own pool runs).
  const pool = new pg.Pool({ connectionString, max: 4, options: OWN_POOL_SETTINGS.options });
  const counts = { queries: 0, streamed: 0, answered: 0 };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    (client as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
      counts.queries += 1;
      const [config] = args;
      if (config instanceof pg.Query) config.on('row', (row: unknown[]) => void (counts.streamed += eventRowsIn(row)));
      const result = query(...args);
      if (result instanceof Promise) {
        void (result as Promise<{ rows?: unknown[] }>).then(
          (value) => void (counts.answered += value.rows?.length ?? 0),
          () => undefined,
        );
      }
      return result;
    };
  });
  return { pool, queries: () => counts.queries, streamedRows: () => counts.streamed, rows: () => counts.streamed + counts.answered };
}
