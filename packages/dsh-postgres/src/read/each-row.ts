/**
 * A statement whose rows are handed over one by one as they arrive (never collected), as arrays: the
 * reads of whole logs, which place each row themselves.
 */
import pg, { type Pool } from 'pg';

/** Runs `config` on a connection of the pool, handing each row to `onRow` as it arrives (the caller knows its columns). @internal */
export async function eachRow(
  pool: Pool,
  config: { name?: string; text: string; values: unknown[] },
  onRow: (row: unknown[]) => void,
): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      // Array rows (no object per row); @types/pg's Query config does not declare `rowMode`.
      const query = new pg.Query<unknown[]>({ ...config, rowMode: 'array' } as pg.QueryConfig);
      query.on('row', (row) => {
        onRow(row);
      });
      query.on('error', reject);
      query.on('end', () => {
        resolve();
      });
      client.query(query);
    });
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // A connection that failed mid-query is discarded, not handed to the next caller.
    client.release(failure);
  }
}
