/**
 * Migration V3 → V4 (SPEC §7), pure: the header says `version: 4`; events are preserved
 * unchanged (the very same objects).
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { V3Header } from '../v3/schemas.js';
import type { V3Event } from '../v3/types.js';
import type { SessionEvent } from '../types.js';
import type { V4Header } from './types.js';

/** A valid V3 log as V4. */
export function migrateV3ToV4(artifact: { header: V3Header; events: readonly V3Event[] }): { header: V4Header; events: SessionEvent[] } {
  const header: V4Header = headerAtVersion(artifact.header, 4);
  // A valid V3 event is a valid V4 event: V4 only added fork closers.
  return { header, events: [...artifact.events] as SessionEvent[] };
}
