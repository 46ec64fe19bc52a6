/** The seed checks a `Session` makes of its constructor input: the markers a seed ends with, and a fork seed's cut (SPEC §5.3). */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { SessionError } from '../session-error.js';

/** Whether `event` is a `session/end-seed` marker (plain or inherited). */
export function isEndSeed(event: SessionEvent | undefined): boolean {
  return event?.type === 'session/end-seed';
}

/** Whether `event` is a fork child's inherited marker (`session/end-seed { inherited: true }`). */
export function isInheritedMarker(event: SessionEvent | undefined): boolean {
  if (event?.type !== 'session/end-seed') return false;
  const data = event.data;
  return typeof data === 'object' && data !== null && !Array.isArray(data) && data.inherited === true;
}

/**
 * `INVALID_CUT` unless `cut` identifies the seed's final inherited marker at `cut + 1` (no later one)
 * and the header counts `cut + 1` inherited events. `events[i]` is the seed's event at seq `offset + i`
 * (a seed whose inherited prefix is not in memory starts at its marker).
 */
export function checkForkSeed(
  id: string,
  header: Pick<SessionHeader, 'inheritedEventCount'>,
  events: readonly SessionEvent[],
  cut: number,
  offset = 0,
): void {
  const marker = events[cut + 1 - offset];
  const laterMarker = events.slice(cut + 2 - offset).some(isInheritedMarker);
  if (!Number.isInteger(cut) || !isInheritedMarker(marker) || laterMarker) {
    throw new SessionError(
      'INVALID_CUT',
      `Fork seed of ${id}: expected cut ${String(cut)} to identify the seed's final inherited marker at seq ${String(cut + 1)}, received ${marker === undefined ? 'no event' : `a ${marker.type} event`}${laterMarker ? ' followed by another inherited marker' : ''}.`,
      { sessionId: id },
    );
  }
  if (header.inheritedEventCount !== cut + 1) {
    throw new SessionError(
      'INVALID_CUT',
      `Fork seed of ${id}: expected header.inheritedEventCount ${cut + 1} for cut ${cut}, received ${header.inheritedEventCount}.`,
      { sessionId: id },
    );
  }
}
