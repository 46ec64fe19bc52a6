/**
 * Migration V5 → V6 (SPEC §23), pure: the header says `version: 6` (its `forkRequest` kept);
 * events are preserved unchanged (the very same objects).
 */
import { headerAtVersion } from '../shared/header-at-version.js';
import type { SessionEvent } from '../types.js';
import type { V5Header } from '../v5/types.js';
import type { V6Header } from './types.js';

/** A valid V5 log as V6. */
export function migrateV5ToV6(artifact: { header: V5Header; events: readonly SessionEvent[] }): {
  header: V6Header;
  events: SessionEvent[];
} {
  const { forkRequest } = artifact.header;
  const header: V6Header = {
    ...headerAtVersion(artifact.header, 6),
    ...(forkRequest === undefined ? {} : { forkRequest: { key: forkRequest.key, digest: forkRequest.digest } }),
  };
  // A valid V5 event is a valid V6 event: V6 only added session/note and a closer sentence.
  return { header, events: [...artifact.events] };
}
