/**
 * @module The provenance dsh-postgres mints for the store to carry: the segment a read's events came
 * from and how many of them it held, or a session one of this backend's writers holds. A fork child
 * refers to that segment for its inherited prefix instead of copying the rows. Only this package
 * reads it (`provenanceKind`: the store sees an opaque value).
 */
import { provenanceKind, type Provenance } from 'dsh-session/internal';
import type { PoolClient } from 'pg';

/** A read's segment and how many events of it the read held, or a held session (its segment read when the child is created). */
type SegmentOrigin = { segment: string; count: number } | { sessionId: string };

const SEGMENT_PROVENANCE = provenanceKind<SegmentOrigin>();

/** The provenance of a read of `count` events from `segment`'s chain. @internal */
export function readProvenance(segment: string, count: number): Provenance {
  return SEGMENT_PROVENANCE.mint({ segment, count });
}

/** The provenance of session `sessionId` as a writer of this backend holds it (its current segment and length, when a child is created). @internal */
export function heldProvenance(sessionId: string): Provenance {
  return SEGMENT_PROVENANCE.mint({ sessionId });
}

/** What a provenance of this package names (undefined for none, or another backend's). @internal */
export function segmentOriginOf(provenance: Provenance | undefined): SegmentOrigin | undefined {
  return SEGMENT_PROVENANCE.read(provenance);
}

/**
 * The segment a provenance of this package names and how many of its events are written: a read's
 * as it was read, a held session's as its row says now; undefined for none (another backend's, a
 * session deleted meanwhile). @internal
 */
export async function writtenSegmentOf(
  client: PoolClient,
  schema: string,
  provenance: Provenance | undefined,
): Promise<{ segment: string; written: number } | undefined> {
  const origin = SEGMENT_PROVENANCE.read(provenance);
  if (origin === undefined) return undefined;
  if (!('sessionId' in origin)) return { segment: origin.segment, written: origin.count };
  const { rows } = await client.query<{ segment: string; next_seq: number }>(
    `SELECT segment, next_seq FROM ${schema}.sessions WHERE id = $1`,
    [origin.sessionId],
  );
  return rows[0] === undefined ? undefined : { segment: rows[0].segment, written: rows[0].next_seq };
}
