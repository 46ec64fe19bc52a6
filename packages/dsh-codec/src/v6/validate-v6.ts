/**
 * The V6 validator (current): header, every event's shape and the relationships of SPEC §3.4 and
 * §23, reporting every issue with its path and seq (the machinery is `shared/log-validation.ts`).
 */
import type { Issue } from '../shared/issue.js';
import { validateLog, type LogRules } from '../shared/log-validation.js';
import type { V3Event } from '../v3/types.js';
import { lineageLogRules } from '../v4/validate-v4.js';
import { checkV6Header } from './check-header.js';
import { V6_EVENT_RULES } from './event-rules.js';

/** How a V6 log is validated: the V6 header and event rules, checked the V4 way. */
export const V6_LOG_RULES: LogRules<V3Event> = lineageLogRules(checkV6Header, V6_EVENT_RULES);

/** Every issue of `artifact` as a V6 log; `[]` when valid. */
export function validateV6(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  return validateLog(V6_LOG_RULES, artifact);
}
