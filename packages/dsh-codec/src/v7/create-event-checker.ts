/**
 * The incremental check for appending one event at a time to a current (V7) log (used by
 * `Session.append`): V7 changed only the header, so it is V6's checker over V6's event rules.
 */
export { createEventChecker, type EventChecker } from '../v6/create-event-checker.js';
/** Whether `type` is a core event type of the current format (V7: V6's types). */
export { isCoreEventType } from '../v6/check-event-shape.js';
