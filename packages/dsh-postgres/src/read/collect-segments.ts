/**
 * @module Segments nobody refers to any more, deleted with their events after a session is deleted.
 */
import type { PostgresSettings } from '../postgres-settings.js';

/**
 * Deletes `segment` and its events when no session and no other segment refers to it, then does the
 * same for the segment it was based on, up the chain. A fork committing a reference meanwhile makes
 * the delete fail on the foreign key, and the chain is kept: descendants always stay readable.
 * Best effort: a segment left behind costs space, never correctness. @internal
 */
export async function collectSegments(context: Pick<PostgresSettings, 'pool' | 'schema'>, segment: string | undefined): Promise<void> {
  const s = context.schema;
  let next = segment;
  while (next !== undefined) {
    const current = next;
    next = undefined;
    const client = await context.pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ base: string | null }>(
        `DELETE FROM ${s}.segments g WHERE g.id = $1
            AND NOT EXISTS (SELECT 1 FROM ${s}.sessions WHERE segment = $1)
            AND NOT EXISTS (SELECT 1 FROM ${s}.segments WHERE base = $1)
         RETURNING g.base`,
        [current],
      );
      if (rows[0] !== undefined) {
        await client.query(`DELETE FROM ${s}.events WHERE segment = $1`, [current]);
        next = rows[0].base ?? undefined;
      }
      await client.query('COMMIT');
    } catch {
      await client.query('ROLLBACK').catch(() => undefined);
    } finally {
      client.release();
    }
  }
}
