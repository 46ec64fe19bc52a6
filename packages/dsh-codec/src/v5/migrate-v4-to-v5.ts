/**
 * Migration V4 → V5 (SPEC §13), pure: the header says `version: 5`; events are preserved
 * unchanged (the very same objects).
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { SessionEvent } from '../types.js';
import type { V4Header } from '../v4/types.js';
import type { V5Header } from './types.js';

/** A valid V4 log as V5. */
export function migrateV4ToV5(artifact: { header: V4Header; events: readonly SessionEvent[] }): {
  header: V5Header;
  events: SessionEvent[];
} {
  const header: V5Header = headerAtVersion(artifact.header, 5);
  // A valid V4 event is a valid V5 event: V5 only added reasoning blocks.
  return { header, events: [...artifact.events] };
}
