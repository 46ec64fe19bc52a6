/**
 * @module The fork child stored under an Idempotency-Key, found through the `fork_key` index.
 */
import { encodeHeader, type SessionHeader } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import type { PostgresSettings } from '../postgres-settings.js';

/**
 * The header of the fork child stored under Idempotency-Key `key`, through the unique `fork_key`
 * index (schema step 2): one indexed row, whatever the number of sessions. `CORRUPT` when the stored
 * header is not a valid current (V7) header. @internal
 */
export async function findForkChild(context: PostgresSettings, key: string): Promise<SessionHeader | undefined> {
  const { rows } = await context.pool.query<{ id: string; header: string }>(
    `SELECT id, header FROM ${context.schema}.sessions WHERE fork_key = $1`,
    [key],
  );
  const row = rows[0];
  if (row === undefined) return undefined;
  try {
    const header = JSON.parse(row.header) as SessionHeader;
    encodeHeader(header);
    return header;
  } catch (error) {
    throw new SessionError(
      'CORRUPT',
      `Cannot read the header of session ${row.id} (forked under Idempotency-Key ${JSON.stringify(key)}): ${error instanceof Error ? error.message : String(error)}`,
      {
        sessionId: row.id,
        cause: error,
      },
    );
  }
}
