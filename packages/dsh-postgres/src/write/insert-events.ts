/**
 * @module Inserting validated events into a segment in one statement.
 */
import { serializeEvent, type SessionEvent } from 'dsh-codec';
import type { PoolClient } from 'pg';
import { landmarkOf } from '../read/landmarks.js';

/**
 * Inserts `events` (already validated by their Session, or by the codec) into `segment` in one
 * multi-row statement, each row sealed with `hashtextextended(body, segment)` (see read-stored-log.ts)
 * and carrying its landmark (landmarks.ts). @internal
 */
export async function insertEvents(client: PoolClient, schema: string, segment: string, events: readonly SessionEvent[]): Promise<void> {
  if (events.length === 0) return;
  await client.query(
    `INSERT INTO ${schema}.events (segment, seq, body, checksum, landmark)
     SELECT $1, e.seq, e.body, hashtextextended(e.body, $1), e.landmark FROM unnest($2::integer[], $3::text[], $4::text[]) AS e (seq, body, landmark)`,
    [
      segment,
      events.map((event) => event.seq),
      events.map((event) => serializeEvent(event)),
      events.map((event) => landmarkOf(event.type)),
    ],
  );
}
