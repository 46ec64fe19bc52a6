/**
 * @module claude-types
 * The Claude Agent SDK's session-store types, matched structurally so this package has no runtime
 * dependency on the SDK. `sdk-types.test.ts` compares them with the pinned SDK's own `.d.ts`, so
 * drift fails the type check.
 */

/** A transcript's address: main transcripts have no `subpath`; subagent files do (`subagents/agent-<id>`). */
export type SessionKey = {
  projectKey: string;
  sessionId: string;
  subpath?: string;
};

/** One transcript line: a string `type`, usually a `uuid` and an ISO `timestamp`, the rest opaque JSON. */
export type SessionStoreEntry = {
  type: string;
  uuid?: string;
  timestamp?: string;
  [k: string]: unknown;
};

/** The SDK's per-session summary: `mtime` on the store's clock, `data` owned by the SDK. */
export type SessionSummaryEntry = {
  sessionId: string;
  mtime: number;
  data: Record<string, unknown>;
};

/** The SDK's pure summary fold (`foldSessionSummary` of `@anthropic-ai/claude-agent-sdk`). */
export type FoldSessionSummary = (
  prev: SessionSummaryEntry | undefined,
  key: SessionKey,
  entries: SessionStoreEntry[],
  options?: { mtime?: number },
) => SessionSummaryEntry;

/** What `createClaudeSessionStore` returns: the SDK's `SessionStore`, every optional method present, plus `close`. */
export type ClaudeSessionStore = {
  append(key: SessionKey, entries: SessionStoreEntry[]): Promise<void>;
  load(key: SessionKey): Promise<SessionStoreEntry[] | null>;
  listSessions(projectKey: string): Promise<Array<{ sessionId: string; mtime: number }>>;
  listSessionSummaries(projectKey: string): Promise<SessionSummaryEntry[]>;
  delete(key: SessionKey): Promise<void>;
  listSubkeys(key: { projectKey: string; sessionId: string }): Promise<string[]>;
  /** Releases every session this store holds (flushing first); the dsh store itself stays open. */
  close(): Promise<void>;
};
