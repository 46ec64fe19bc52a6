/**
 * Migration V1 → V2 (SPEC §7), pure: the header gains `inheritedEventCount: 0`; events are kept.
 */
import type { V1Event, V1Header } from '../v1/schemas.js';
import type { V2Event, V2Header } from './schemas.js';

/** A valid V1 log as V2 (a V1 session was never a fork child). */
export function migrateV1ToV2(artifact: { header: V1Header; events: readonly V1Event[] }): { header: V2Header; events: V2Event[] } {
  const { id, createdAt, cwd } = artifact.header;
  const header: V2Header =
    cwd === undefined
      ? { format: 'dsh-session', version: 2, id, createdAt, inheritedEventCount: 0 }
      : { format: 'dsh-session', version: 2, id, createdAt, cwd, inheritedEventCount: 0 };
  return { header, events: [...artifact.events] };
}
