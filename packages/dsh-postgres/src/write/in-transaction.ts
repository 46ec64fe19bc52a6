/**
 * @module One transaction on one pooled connection: COMMIT when the work resolves, ROLLBACK when it throws.
 */
import type { Pool, PoolClient } from 'pg';

/** Runs `work` in one transaction on one pooled connection: COMMIT when it resolves, ROLLBACK when it throws. @internal */
export async function inTransaction<T>(pool: Pool, work: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
