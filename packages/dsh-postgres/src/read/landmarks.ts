/**
 * The event types a session's summary is read from (`list()`): stored in the `landmark` column of
 * their rows (schema step 5), NULL for every other row, so a summary reads these rows by index and
 * not the rest of the log. @internal
 */
export const LANDMARK_TYPES: ReadonlySet<string> = new Set(['session/title', 'session/config', 'turn/start', 'turn/end']);

/** The landmark an event's row carries: its type when it is one of `LANDMARK_TYPES`, else null. @internal */
export function landmarkOf(type: string): string | null {
  return LANDMARK_TYPES.has(type) ? type : null;
}
