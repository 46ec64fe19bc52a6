/**
 * Canonical fork-closer results, frozen with format V4. Forked wording never says the parent was
 * interrupted or crashed: the parent may go on and run the call after the fork point.
 */
import type { ToolEffect } from '../types.js';

export const FORKED_RESULT_ID = /^forked-tool-result-(.+)-(0|[1-9][0-9]*)$/;

export const FORKED_NOT_STARTED_TEXT =
  'This session was forked from its parent before this tool call started. The inherited records ' +
  'contain no result for it, and the parent may have executed the call after the fork point. ' +
  'A read-only or idempotent call can simply be run here; for a call with side effects, first ' +
  "check whether the parent's execution already took effect.";

const FORKED_STARTED_FACTS =
  'This session was forked after this tool call started in the parent, and its result is missing ' +
  'from the inherited records. The parent may have completed it, or may still be running it, after ' +
  'the fork point: the outcome is unknown to this branch.';

const FORKED_STARTED_ADVICE: Record<ToolEffect, string> = {
  'read-only': 'The tool is declared read-only, so it can safely be run again here.',
  idempotent: 'The tool is declared idempotent, so it can safely be run again here.',
  'side-effect':
    "The tool is declared to have side effects: verify the external state first, since the parent's " +
    'call may already have taken effect. Do not retry it blindly.',
  unknown:
    'Retry it only if the operation is read-only or idempotent. If it may have side effects, verify ' +
    'the external state first. Do not retry it blindly.',
};

/** The text of a forked started result, its advice narrowed by the call's declared effect. */
export function forkedStartedText(effect: ToolEffect): string {
  return `${FORKED_STARTED_FACTS} ${FORKED_STARTED_ADVICE[effect]}`;
}

/** The id prefix V4 reserves for fork-closer results. */
export const FORKED_RESULT_PREFIX = 'forked-tool-result-';
