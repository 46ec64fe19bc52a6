/**
 * Claude Code's line types that are not entries: the title lines and the lines that hold nothing for a
 * dsh session. A leaf the reader, the text path's tree and the byte path's entry index all read.
 * @module
 */

/** Line types that carry a title, not an entry. */
export const CLAUDE_CODE_TITLE_TYPES: ReadonlySet<string> = new Set(['summary', 'ai-title', 'custom-title']);

/** Line types that hold nothing for a dsh session (SPEC §18 lists those current versions write); skipped without a warning. */
export const CLAUDE_CODE_QUIET_TYPES: ReadonlySet<string> = new Set([
  'file-history-snapshot',
  'queue-operation',
  'progress',
  'permission-mode',
  'attachment',
  'last-prompt',
  'system',
  'mode',
  'api-request',
  'api-request-blob',
  'api-request-shape',
  'atis-latch',
  'tools-used',
  'cost-state',
  'api-request-route',
]);
