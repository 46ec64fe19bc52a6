/**
 * Migration V6 → V7 (SPEC §24), pure: the header says `version: 7` (its `forkRequest` kept; a V6
 * log names no segments); events are preserved unchanged (the very same objects).
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { SessionEvent, SessionHeader } from '../types.js';
import type { V6Header } from '../v6/types.js';

/** A valid V6 log as V7. */
export function migrateV6ToV7(artifact: { header: V6Header; events: readonly SessionEvent[] }): {
  header: SessionHeader;
  events: SessionEvent[];
} {
  const { forkRequest } = artifact.header;
  const header: SessionHeader = {
    ...headerAtVersion(artifact.header, 7),
    ...(forkRequest === undefined ? {} : { forkRequest: { key: forkRequest.key, digest: forkRequest.digest } }),
  };
  // V7 changed only the header: every valid V6 event is a valid V7 event.
  return { header, events: [...artifact.events] };
}
