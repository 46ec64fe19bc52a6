import { serializeEvent, type SessionEvent } from 'dsh-codec';
import type { PoolClient } from 'pg';

/** Inserts `events` (already validated by their Session) into `segment` in one multi-row statement. @internal */
export async function insertEvents(client: PoolClient, schema: string, segment: string, events: readonly SessionEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(`INSERT INTO ${schema}.events (segment, seq, body) SELECT $1, * FROM unnest($2::integer[], $3::text[])`, [
    segment,
    events.map((event) => event.seq),
    events.map((event) => serializeEvent(event)),
  ]);
}
