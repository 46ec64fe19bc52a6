/**
 * One entry point to the canonical synthetic results of SPEC §4, whichever version froze them
 * (V3 interrupted, V4 forked, V6 the workspace sentence of SPEC §23). dsh-session's closer builds
 * its records from these; validators check against them.
 */
import type { CloseCause, ToolEffect, ToolResultMessage } from './types.js';
import {
  INTERRUPTED_NOT_STARTED_TEXT,
  TOOL_NOT_STARTED_ERROR,
  TOOL_OUTCOME_UNKNOWN_ERROR,
  interruptedStartedText,
} from './v3/interrupted-results.js';
import { FORKED_NOT_STARTED_TEXT, forkedStartedText } from './v4/forked-results.js';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from './v6/workspace-texts.js';

/**
 * What a closer knows of the child's files: `'at-cut'` when they are exactly the workspace at the cut
 * (a forked closer then adds `FORKED_WORKSPACE_AT_CUT_SENTENCE`). Only forked closers take it.
 */
export type CloserOptions = { workspace?: 'at-cut' };

/** `<cause>-tool-result-<callId>-<seq>`, where `seq` is the seq the result occupies. */
export function syntheticResultId(cause: CloseCause, callId: string, seq: number): string {
  return `${cause}-tool-result-${callId}-${seq}`;
}

/**
 * The canonical wording for a call closed by `cause`; `effect` narrows the advice of started calls.
 * `workspace: 'at-cut'` (forked only; a RangeError for `interrupted`) adds the workspace sentence.
 */
export function syntheticResultText(
  cause: CloseCause,
  started: boolean,
  effect: ToolEffect = 'unknown',
  options: CloserOptions = {},
): string {
  if (cause === 'interrupted') {
    if (options.workspace !== undefined) {
      throw new RangeError(
        `syntheticResultText: only a forked closer takes workspace, received ${JSON.stringify(options.workspace)} for interrupted`,
      );
    }
    return started ? interruptedStartedText(effect) : INTERRUPTED_NOT_STARTED_TEXT;
  }
  const text = started ? forkedStartedText(effect) : FORKED_NOT_STARTED_TEXT;
  // Read as unknown: a JavaScript caller may pass anything, and only 'at-cut' is a fact the sentence states.
  const workspace: unknown = options.workspace;
  if (workspace === undefined) return text;
  if (workspace !== 'at-cut') {
    throw new RangeError(`syntheticResultText: expected workspace 'at-cut' or none, received ${JSON.stringify(workspace)}`);
  }
  return `${text} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}`;
}

/** The `tool/result` error of a synthetic result. */
export function syntheticResultError(started: boolean): { name: string; code: string } {
  return started ? { ...TOOL_OUTCOME_UNKNOWN_ERROR } : { ...TOOL_NOT_STARTED_ERROR };
}

/** The complete synthetic result message for one pending call (`options` as `syntheticResultText` takes them). */
export function syntheticResultMessage(
  cause: CloseCause,
  call: { callId: string; started: boolean; effect?: ToolEffect },
  seq: number,
  options: CloserOptions = {},
): ToolResultMessage {
  return {
    id: syntheticResultId(cause, call.callId, seq),
    role: 'tool',
    callId: call.callId,
    content: [{ type: 'text', text: syntheticResultText(cause, call.started, call.effect, options) }],
    isError: true,
  };
}
