/**
 * @module create-claude-session-store
 * `createClaudeSessionStore({ store })` (SPEC §19): the Claude Agent SDK's `SessionStore` over any
 * dsh `SessionStore` — a JSONL directory or PostgreSQL. This file wires the operation modules.
 */
import type { SessionStore } from 'dsh-session';
import { appendEntries } from './append-entries.js';
import { CONTEXT, type ClaudeStoreContext } from './claude-store-context.js';
import type { ClaudeSessionStore, FoldSessionSummary } from './claude-types.js';
import { deleteTranscript } from './delete-transcript.js';
import { release } from './hold-session.js';
import { listSessionIds, listSubpaths, listSummaries, loadEntries } from './read-transcripts.js';

/** Options of `createClaudeSessionStore`. */
export type ClaudeSessionStoreOptions = {
  /** The dsh store every key is kept in (one dsh session per key). It stays the caller's to close. */
  store: SessionStore;
  /** Keep a session's lease this long after an append in case another follows (default 250 ms; 0: release at once). */
  holdMs?: number;
  /** Release after an append once held this long, so another process waiting gets its turn (default 2000 ms). */
  maxHoldMs?: number;
  /** How long an append or delete waits for another process's lease on the key (default 30 000 ms). */
  busyTimeoutMs?: number;
  /**
   * The SDK's `foldSessionSummary` for `listSessionSummaries`. Default: the one of an installed
   * `@anthropic-ai/claude-agent-sdk` (an optional peer); `null` (or no SDK): no summaries.
   */
  foldSessionSummary?: FoldSessionSummary | null;
};

function nonNegative(name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`createClaudeSessionStore: expected ${name} to be a finite number ≥ 0, received ${String(value)}.`);
  return value;
}

/** The SDK's fold from an installed SDK, else null (looked up once, on the first summary listing). */
async function installedFold(): Promise<FoldSessionSummary | null> {
  try {
    const sdk = (await import('@anthropic-ai/claude-agent-sdk')) as { foldSessionSummary?: unknown };
    return typeof sdk.foldSessionSummary === 'function' ? (sdk.foldSessionSummary as FoldSessionSummary) : null;
  } catch {
    return null;
  }
}

/** A Claude Agent SDK `SessionStore` (`sessionStore` option of `query()`) keeping every key in `store`. */
export function createClaudeSessionStore(options: ClaudeSessionStoreOptions): ClaudeSessionStore {
  const context: ClaudeStoreContext = {
    store: options.store,
    holdMs: nonNegative('holdMs', options.holdMs, 250),
    maxHoldMs: nonNegative('maxHoldMs', options.maxHoldMs, 2000),
    busyTimeoutMs: nonNegative('busyTimeoutMs', options.busyTimeoutMs, 30_000),
    fold: options.foldSessionSummary,
    held: new Map(),
    released: new Map(),
    queues: new Map(),
    keys: new Map(),
    closed: false,
  };
  const claudeStore: ClaudeSessionStore = {
    append: (key, entries) => appendEntries(context, key, entries),
    load: (key) => loadEntries(context, key),
    listSessions: (projectKey) => listSessionIds(context, projectKey),
    listSessionSummaries: async (projectKey) => {
      if (context.fold === undefined) context.fold = await installedFold();
      return listSummaries(context, projectKey);
    },
    delete: (key) => deleteTranscript(context, key),
    listSubkeys: (key) => listSubpaths(context, key),
    close: async () => {
      context.closed = true;
      await Promise.all([...context.queues.values()]);
      for (const id of [...context.held.keys()]) await release(context, id);
      context.released.clear();
    },
  };
  // Not enumerable: the SDK sees exactly its SessionStore methods (and close).
  Object.defineProperty(claudeStore, CONTEXT, { value: context });
  return claudeStore;
}
