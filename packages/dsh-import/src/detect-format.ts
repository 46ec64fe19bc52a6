/**
 * Recognises a transcript's format from its first lines.
 */
import { CLAUDE_CODE_QUIET_TYPES, CLAUDE_CODE_TITLE_TYPES } from './claude-code/claude-code-line-types.js';
import type { SourceLine } from './read-lines.js';

/** The formats dsh-import reads: the one list every caller (CLI, host, demo) shows and checks. */
export const TRANSCRIPT_FORMATS = ['claude-code', 'codex', 'pi'] as const;

/** A format dsh-import reads. */
export type TranscriptFormat = (typeof TRANSCRIPT_FORMATS)[number];

/** Claude Code's line types: its two entry types and the lines that are not entries (titles, quiet lines). */
const CLAUDE_TYPES: ReadonlySet<string> = new Set(['user', 'assistant', ...CLAUDE_CODE_TITLE_TYPES, ...CLAUDE_CODE_QUIET_TYPES]);
const CODEX_TYPES = new Set(['session_meta', 'response_item', 'event_msg', 'turn_context', 'compacted']);

/** The format one line belongs to, when it says. */
export function formatOfLine(value: Record<string, unknown>, first: boolean): TranscriptFormat | undefined {
  const type = value.type;
  if (first && type === 'session' && typeof value.id === 'string') return 'pi';
  if (typeof type === 'string' && CODEX_TYPES.has(type) && 'payload' in value) return 'codex';
  if (first && type === undefined && typeof value.id === 'string' && typeof value.timestamp === 'string') return 'codex';
  if (
    typeof type === 'string' &&
    CLAUDE_TYPES.has(type) &&
    ('uuid' in value || 'sessionId' in value || 'leafUuid' in value || 'messageId' in value)
  )
    return 'claude-code';
  return undefined;
}

/** The format of the first line (within the first 20) that says; undefined when none does. */
export function detectFormat(lines: readonly SourceLine[]): TranscriptFormat | undefined {
  for (const [index, line] of lines.slice(0, 20).entries()) {
    const format = formatOfLine(line.value, index === 0);
    if (format !== undefined) return format;
  }
  return undefined;
}
