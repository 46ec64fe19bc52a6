/**
 * The V7 validator (current): a self-contained log's header, every event's shape and the
 * relationships of SPEC §3.4 and §23 (V7's event rules: V6's, with `session/config.checkpoints`).
 */
import type { Issue } from '../shared/issue.js';
import { validateLog, type LogRules } from '../shared/log-validation.js';
import type { V3Event } from '../v3/types.js';
import { lineageLogRules } from '../v4/validate-v4.js';
import { checkV7LogHeader } from './check-header.js';
import { V7_EVENT_RULES } from './event-rules.js';

/** How a V7 log is validated: the V7 header of a self-contained log and V7's event rules, checked the V4 way. */
export const V7_LOG_RULES: LogRules<V3Event> = lineageLogRules(checkV7LogHeader, V7_EVENT_RULES);

/** Every issue of `artifact` as a V7 log; `[]` when valid. */
export function validateV7(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  return validateLog(V7_LOG_RULES, artifact);
}
