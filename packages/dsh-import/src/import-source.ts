/**
 * The `import/source` event (ignorable, standalone, first in every imported session): which tool
 * wrote the source, the source's own session id, and the links to other sessions (a subagent's main
 * session and spawning call, the subagents a session's calls spawned, a Codex fork's history base).
 */
import type { JsonObject, SessionEvent } from 'dsh-codec';
import type { TranscriptFormat } from './detect-format.js';

/** The event type; ignorable, so a reader that does not know it skips it. */
export const IMPORT_SOURCE_EVENT = 'import/source';

/** The data of an `import/source` event. Absent keys do not apply. */
export type ImportSource = {
  format: TranscriptFormat;
  /** The source's own session id: Claude Code `sessionId`, Codex thread id, pi header `id`. */
  sourceId: string;
  /** A subagent's own id (Claude Code `agentId`; Codex `agent_nickname`). */
  agentId?: string;
  /** A subagent's main session (dsh id; Claude Code: the same `sessionId`, Codex: `parent_thread_id`). */
  mainSession?: string;
  /** The call of the main session that spawned this subagent (Task/Agent `tool_use` id), when known. */
  spawnedBy?: string;
  /** The subagents this session's calls spawned: call id → the subagent session's dsh id. */
  subagents?: Record<string, string>;
  /** Codex: the ordinal of this rollout's first line, when it is not 0 (a fork rollout continues its base's). */
  firstOrdinal?: number;
  /** Codex `session_meta.history_base`: the rollout holding the inherited records and where they end. */
  historyBase?: { threadId: string; endOrdinalExclusive: number };
};

/**
 * The `import/source` data of a session's events: the last one (a Codex fork child holds its
 * parent's in the inherited prefix, then its own); undefined for a session dsh did not import.
 */
export function importSourceOf(events: readonly SessionEvent[]): ImportSource | undefined {
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i] as SessionEvent;
    if (event.type === IMPORT_SOURCE_EVENT && typeof event.data === 'object' && event.data !== null && !Array.isArray(event.data)) {
      return event.data as unknown as ImportSource;
    }
  }
  return undefined;
}

/** `source` as event data, without the keys that do not apply. */
export function sourceData(source: ImportSource): JsonObject {
  return JSON.parse(JSON.stringify(source)) as JsonObject;
}
