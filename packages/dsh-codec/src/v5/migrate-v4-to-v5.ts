/**
 * Migration V4 → V5 (SPEC §13), pure: the header says `version: 5`; events are preserved
 * unchanged (the very same objects).
 */
import type { SessionEvent, SessionHeader } from '../types.js';
import type { V4Header } from '../v4/types.js';

/** A valid V4 log as V5. */
export function migrateV4ToV5(artifact: { header: V4Header; events: readonly SessionEvent[] }): { header: SessionHeader; events: SessionEvent[] } {
  const { id, createdAt, cwd, parentSession, forkCut, inheritedEventCount } = artifact.header;
  // Rebuilt in the documented key order, so a migrated header encodes like a written one.
  const header: SessionHeader = {
    format: 'dsh-session',
    version: 5,
    id,
    createdAt,
    ...(cwd === undefined ? {} : { cwd }),
    ...(parentSession === undefined ? {} : { parentSession }),
    ...(forkCut === undefined ? {} : { forkCut }),
    inheritedEventCount,
  };
  // A valid V4 event is a valid V5 event: V5 only added reasoning blocks.
  return { header, events: [...artifact.events] };
}
