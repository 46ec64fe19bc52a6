/**
 * One entry point to the canonical synthetic results of SPEC §4, whichever version froze them.
 * dsh-session's closer builds its records from these; validators check against them.
 */
import type { CloseCause, ToolEffect, ToolResultMessage } from './types.js';
import {
  INTERRUPTED_NOT_STARTED_TEXT,
  TOOL_NOT_STARTED_ERROR,
  TOOL_OUTCOME_UNKNOWN_ERROR,
  interruptedStartedText,
} from './v3/interrupted-results.js';
import { FORKED_NOT_STARTED_TEXT, forkedStartedText } from './v4/forked-results.js';

/** `<cause>-tool-result-<callId>-<seq>`, where `seq` is the seq the result occupies. */
export function syntheticResultId(cause: CloseCause, callId: string, seq: number): string {
  return `${cause}-tool-result-${callId}-${seq}`;
}

/** The canonical wording for a call closed by `cause`; `effect` narrows the advice of started calls. */
export function syntheticResultText(cause: CloseCause, started: boolean, effect: ToolEffect = 'unknown'): string {
  if (cause === 'interrupted') return started ? interruptedStartedText(effect) : INTERRUPTED_NOT_STARTED_TEXT;
  return started ? forkedStartedText(effect) : FORKED_NOT_STARTED_TEXT;
}

/** The `tool/result` error of a synthetic result. */
export function syntheticResultError(started: boolean): { name: string; code: string } {
  return started ? { ...TOOL_OUTCOME_UNKNOWN_ERROR } : { ...TOOL_NOT_STARTED_ERROR };
}

/** The complete synthetic result message for one pending call. */
export function syntheticResultMessage(
  cause: CloseCause,
  call: { callId: string; started: boolean; effect?: ToolEffect },
  seq: number,
): ToolResultMessage {
  return {
    id: syntheticResultId(cause, call.callId, seq),
    role: 'tool',
    callId: call.callId,
    content: [{ type: 'text', text: syntheticResultText(cause, call.started, call.effect) }],
    isError: true,
  };
}
