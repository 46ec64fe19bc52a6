/**
 * The native fork for Claude Code entries held in memory (the Claude Agent SDK's session store
 * hands over entry objects, not a file): same cut, same kept entries, same closers as the file fork.
 */
import { CLAUDE_CODE_NATIVE } from './claude-code-native.js';
import { forkNativeLines } from './fork-native-transcript.js';
import type { NativeLine } from './native-line.js';
import type { OpenCall } from './open-calls.js';

/** The forked entries and what they came from. */
export type ClaudeCodeEntriesFork = {
  sessionId: string;
  entries: Record<string, unknown>[];
  parentSessionId: string | undefined;
  cut: number;
  inheritedEntryCount: number;
  closedCalls: OpenCall[];
};

/**
 * Forks Claude Code `entries` (objects or JSON lines) at the entry whose `uuid` is `at` (or
 * `seq:N`): the chain to it with `sessionId` set to the child's, then one `tool_result` entry with
 * `is_error: true` and dsh's forked text per call open there. Unknown `at`: `INVALID_CUT`.
 */
export function forkClaudeCodeEntries(
  entries: readonly (Record<string, unknown> | string)[],
  options: { at: string; sessionId: string; now: number },
): ClaudeCodeEntriesFork {
  const lines: NativeLine[] = entries.map((entry, index) => {
    // Read as the file holding these entries would be: the JSON text of each.
    const raw = typeof entry === 'string' ? entry : JSON.stringify(entry);
    return { index, raw, value: JSON.parse(raw) as Record<string, unknown> };
  });
  const raws: string[] = [];
  const { sessionId, parentSessionId, cut, inheritedEntryCount, closedCalls } = forkNativeLines(
    CLAUDE_CODE_NATIVE,
    lines,
    { ...options, format: 'claude-code' },
    (raw) => raws.push(raw),
  );
  return {
    sessionId,
    entries: raws.map((raw) => JSON.parse(raw) as Record<string, unknown>),
    parentSessionId,
    cut,
    inheritedEntryCount,
    closedCalls,
  };
}
