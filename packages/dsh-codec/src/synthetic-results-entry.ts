/**
 * @module dsh-codec/synthetic-results
 * SPEC §4's canonical synthetic tool results alone, for a caller that closes open calls without
 * loading the codec's schemas and validators (dsh-import's native fork). The main entry exports the same functions.
 */
export { syntheticResultError, syntheticResultId, syntheticResultMessage, syntheticResultText } from './synthetic-results.js';
export { workspaceMovedNoteText } from './workspace-moved-note-text.js';
