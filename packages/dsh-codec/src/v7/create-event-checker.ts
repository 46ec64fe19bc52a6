/**
 * The incremental check for appending one event at a time to a current (V7) log (used by
 * `Session.append`): the shared checker over the V7 event rules.
 */
import { eventCheckerOver, type EventChecker } from '../shared/event-checker.js';
import { EventValidator } from '../shared/event-validator.js';
import { V7_EVENT_RULES } from './event-rules.js';

export type { EventChecker } from '../shared/event-checker.js';
/** Whether `type` is a core event type of the current format (V7: V6's types). */
export { isCoreEventType } from '../v6/check-event-shape.js';

/** A fresh checker expecting seq 0; feed it a seed then live events, in order. */
export function createEventChecker(): EventChecker {
  return eventCheckerOver(new EventValidator(V7_EVENT_RULES));
}
