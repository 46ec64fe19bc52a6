/**
 * `isPluginEvent`: the guard that finds a plugin's events in a typed log, where comparing `type` with a
 * literal no core or dsh type has is a compile error (docs/decisions/2026-12-07-events-narrow-by-type.md).
 */
import type { DshEvent, PluginEvent, SessionEvent } from './types.js';
import { isCoreEventType } from './v6/check-event-shape.js';

/**
 * True when `event` is not a core event and is `ignorable: true` (then it is a `PluginEvent`), and its
 * `type` equals `type` when one is given: `events.filter((e) => isPluginEvent(e, 'my/progress'))`.
 */
export function isPluginEvent(event: DshEvent | SessionEvent, type?: string): event is PluginEvent {
  return event.ignorable === true && !isCoreEventType(event.type) && (type === undefined || event.type === type);
}
