/**
 * @module dsh-codec/synthetic-results
 * SPEC §4's canonical synthetic tool results and SPEC §23's workspace texts alone, for a caller that closes open calls without
 * loading the codec's schemas and validators (dsh-import's native fork). The main entry exports the same functions.
 */
export {
  syntheticResultError,
  syntheticResultId,
  syntheticResultMessage,
  syntheticResultText,
  type CloserOptions,
} from './synthetic-results.js';
export {
  FORKED_WORKSPACE_AT_CUT_SENTENCE,
  WORKSPACE_STALE_MAX_PATHS,
  workspaceMovedNote,
  workspaceMovedNoteText,
  workspaceStaleNote,
  workspaceStaleNoteText,
} from './v6/workspace-texts.js';
