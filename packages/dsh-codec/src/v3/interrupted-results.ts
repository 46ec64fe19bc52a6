/**
 * Canonical crash-recovery results, frozen with format V3. The V3 validator admits a result
 * without a `tool/call` only when it matches the not-started record here exactly.
 */

/** A tool's declared effect, as V3 froze it. */
type V3ToolEffect = 'read-only' | 'idempotent' | 'side-effect' | 'unknown';

/** Ids of interrupted synthetic results: `interrupted-tool-result-<callId>-<seq>`. */
export const INTERRUPTED_RESULT_ID = /^interrupted-tool-result-(.+)-(0|[1-9][0-9]*)$/;

/** The id prefix V3 reserves for crash-recovery results. */
export const INTERRUPTED_RESULT_PREFIX = 'interrupted-tool-result-';

export const TOOL_NOT_STARTED_ERROR = { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' } as const;
export const TOOL_OUTCOME_UNKNOWN_ERROR = { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' } as const;

export const INTERRUPTED_NOT_STARTED_TEXT =
  'The session was interrupted before this tool call started, so it did not run. ' + 'It may be run again if it is still needed.';

const INTERRUPTED_STARTED_FACTS =
  'The session was interrupted after this tool call started, and no result was recorded: its outcome is unknown.';

const INTERRUPTED_STARTED_ADVICE: Record<V3ToolEffect, string> = {
  'read-only': 'The tool is declared read-only, so it can safely be run again.',
  idempotent: 'The tool is declared idempotent, so it can safely be run again.',
  'side-effect':
    'The tool is declared to have side effects: before anything else, verify the external state ' +
    '(or ask the user) to learn whether it took effect. Do not retry it blindly.',
  unknown:
    'Retry it only if the operation is read-only or idempotent. If it may have side effects, first ' +
    'verify the external state (or ask the user). Do not retry it blindly.',
};

/** The text of an interrupted started result, its advice narrowed by the call's declared effect. */
export function interruptedStartedText(effect: V3ToolEffect): string {
  return `${INTERRUPTED_STARTED_FACTS} ${INTERRUPTED_STARTED_ADVICE[effect]}`;
}

/** Every canonical text of an interrupted started result (one per effect). */
export const INTERRUPTED_STARTED_TEXTS: ReadonlySet<string> = new Set(
  (Object.keys(INTERRUPTED_STARTED_ADVICE) as V3ToolEffect[]).map((effect) => interruptedStartedText(effect)),
);
