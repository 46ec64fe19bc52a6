/**
 * The V4 validator: header, every event's shape and the relationships of SPEC §3.4, reporting
 * every issue with its path and seq (the machinery is `shared/log-validation.ts`).
 */
import type { EventRules } from '../shared/event-validator.js';
import type { Issue } from '../shared/issue.js';
import { validateLog, type LogRules } from '../shared/log-validation.js';
import { ForkMarkerCheck, type ForkLineage } from '../v2/fork-header-check.js';
import type { V3Event } from '../v3/types.js';
import { checkV4Header } from './check-header.js';
import { V4_EVENT_RULES } from './event-rules.js';

/** A log checked the V4 way: `checkHeader`, then `events`, with V2's inherited-marker check (V5 reuses it). */
export function lineageLogRules(checkHeader: (header: unknown) => Issue[], events: EventRules<V3Event>): LogRules<V3Event> {
  return { checkHeader, events, marker: (header) => new ForkMarkerCheck(header as ForkLineage) };
}

/** How a V4 log is validated. */
export const V4_LOG_RULES: LogRules<V3Event> = lineageLogRules(checkV4Header, V4_EVENT_RULES);

/** Every issue of `artifact` as a V4 log; `[]` when valid. */
export function validateV4(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  return validateLog(V4_LOG_RULES, artifact);
}
