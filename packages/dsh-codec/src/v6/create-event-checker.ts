/**
 * The incremental check for appending one event at a time to a current (V6) log (used by
 * `Session.append`): the shared checker over the V6 event rules.
 */
import { eventCheckerOver, type EventChecker } from '../shared/event-checker.js';
import { EventValidator } from '../shared/event-validator.js';
import { V6_EVENT_RULES } from './event-rules.js';

export type { EventChecker } from '../shared/event-checker.js';

/** A fresh checker expecting seq 0; feed it a seed then live events, in order. */
export function createEventChecker(): EventChecker {
  return eventCheckerOver(new EventValidator(V6_EVENT_RULES));
}
