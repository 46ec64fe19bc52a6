/**
 * @module `findEvents`: the events of some types in a log, read by type — a stored log is searched for
 * those types and only the matching lines are decoded — so a fork can look at a long history's tool
 * calls or checkpoints without decoding the rest.
 */
import type { SessionEvent } from 'dsh-codec';
import { eventSourceOf, type SessionObservation } from './session-observation.js';
import { arraySource, type EventSource } from '../sources/event-source.js';

/** Which of the matching events `findEvents` returns. */
export type FindEventsOptions = {
  /** Only events with seq < `before` (default: the whole log). */
  before?: number;
  /** Only events with seq > `after` (default: the whole log); the search stops there, so a log's tail costs only itself. */
  after?: number;
  /** Only the latest this many of them (default: all). */
  latest?: number;
};

/**
 * The events of `log` (an observation, or an array of events) whose type is one of `types`, in seq
 * order, within `options`. A stored log is read from its end by type, never decoded whole.
 */
export function findEvents(
  log: SessionObservation | readonly SessionEvent[],
  types: readonly string[],
  options: FindEventsOptions = {},
): SessionEvent[] {
  const source: EventSource = Array.isArray(log)
    ? arraySource(log as readonly SessionEvent[])
    : (eventSourceOf(log) ?? arraySource((log as SessionObservation).events));
  const latest = options.latest ?? Number.POSITIVE_INFINITY;
  const before = Math.min(options.before ?? source.length, source.length);
  const after = options.after ?? -1;
  // One walk per type: a walk over several types at once would search a rare type's whole log again at every step.
  const found: SessionEvent[] = [];
  for (const type of new Set(types)) {
    const ofType: SessionEvent[] = [];
    for (let end = before; ofType.length < latest && end > 0;) {
      const at = source.findLast([type], end);
      if (at === -1 || at <= after) break;
      ofType.push(source.at(at));
      end = at;
    }
    for (const event of ofType) found.push(event);
  }
  found.sort((a, b) => a.seq - b.seq);
  return Number.isFinite(latest) ? found.slice(Math.max(0, found.length - latest)) : found;
}
