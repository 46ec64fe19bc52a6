/**
 * @module fork-entries
 * The entries of a fork child, from dsh-import's native Claude Code fork (`forkClaudeCodeEntries`,
 * the same cut and closers as `dsh fork FILE --at UUID`): the chain from the root to the cut entry
 * with the child's `sessionId`, then one `is_error` tool_result per call open there holding the text
 * dsh's shared closer stores. Here `at` is always an entry uuid of the main transcript.
 */
import { forkClaudeCodeEntries, ImportError } from 'dsh-import';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionStoreEntry } from './claude-types.js';

function invalidCut(at: string, entries: readonly SessionStoreEntry[], cause?: unknown): ClaudeStoreError {
  const uuids = entries.flatMap((entry) => (entry.uuid === undefined ? [] : [entry.uuid]));
  const newest = uuids.slice(-3).join(', ');
  return new ClaudeStoreError(
    'INVALID_CUT',
    `Cannot fork at ${JSON.stringify(at)}: expected the uuid of one of the ${String(uuids.length)} entries of the main transcript (the newest: ${newest || 'none'}); nothing was created.`,
    { cause },
  );
}

/** The child's entries and how many were copied from the parent; `INVALID_CUT` when `at` is no entry's uuid. */
export function forkEntries(
  entries: readonly SessionStoreEntry[],
  options: { at: string; sessionId: string; now: number },
): { entries: SessionStoreEntry[]; inheritedEntryCount: number } {
  // Only an entry uuid: dsh-import's `seq:N` form is not part of this API.
  if (!entries.some((entry) => entry.uuid === options.at)) throw invalidCut(options.at, entries);
  try {
    const fork = forkClaudeCodeEntries(entries, options);
    return { entries: fork.entries as SessionStoreEntry[], inheritedEntryCount: fork.inheritedEntryCount };
  } catch (error) {
    if (ImportError.is(error) && error.code === 'INVALID_CUT') throw invalidCut(options.at, entries, error);
    throw error;
  }
}
