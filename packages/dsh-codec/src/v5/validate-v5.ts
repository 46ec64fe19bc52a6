/**
 * The V5 validator (current): header, every event's shape and the relationships of SPEC §3.4,
 * reporting every issue with its path and seq (the machinery is `shared/log-validation.ts`).
 */
import type { Issue } from '../shared/issue.js';
import { validateLog, type LogRules } from '../shared/log-validation.js';
import type { V3Event } from '../v3/types.js';
import { lineageLogRules } from '../v4/validate-v4.js';
import { checkV5Header } from './check-header.js';
import { V5_EVENT_RULES } from './event-rules.js';

/** How a V5 log is validated: the V5 header and event rules, checked the V4 way. */
export const V5_LOG_RULES: LogRules<V3Event> = lineageLogRules(checkV5Header, V5_EVENT_RULES);

/** Every issue of `artifact` as a V5 log; `[]` when valid. */
export function validateV5(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  return validateLog(V5_LOG_RULES, artifact);
}
