/**
 * @module dsh-session
 * Durable append-only session logs: `Session` (the in-memory log with the current format's invariants), `SessionStore`
 * (create, open with crash repair, inspect, exact forks, list, delete) over in-memory or JSONL storage.
 * Fork seeds without a store come from the `dsh-session/fork` entry.
 */
export type { AppendOptions, Session } from './session/session.js';
export { isTransientStorageError, SESSION_ERROR_CODES, SessionError, type LeaseHolder, type SessionErrorCode } from './session-error.js';
export type { SessionObservation } from './store/session-observation.js';
export { LATEST_CLOSED_TURN, selectForkCut } from './store/fork-cut.js';
/**
 * The latest title, config (whole) and cwd (the latest config naming one, else the header's) of an
 * observation or an array of events: the one reader of "what a log says about itself now".
 */
export { latestMetadata } from './store/latest-metadata.js';
export type { SessionMetadata } from './sources/latest-metadata-of.js';
/** The events of some types in a log (tool calls, checkpoints…), read by type: a stored log is not decoded whole. */
export { findEvents, type FindEventsOptions } from './store/find-events.js';
export { findFileCalls, type FindFileCallsOptions } from './store/find-file-calls.js';
export { FILE_ARGUMENTS, fileCallOf, type FileCall } from './sources/file-call.js';
export {
  createSessionStore,
  type CreateSessionOptions,
  type ForkSessionOptions,
  type SessionInspection,
  type SessionStore,
  type SessionStoreOptions,
} from './store/session-store.js';
export type { SessionSummary } from './store/summarize.js';
/** The storage interface a third-party backend implements (dsh's own backends' faster forms are in `dsh-session/internal`). */
export type { SessionBackend, SessionWriter, StoredLog, StoredSessionRef } from './session-backend.js';
export { createMemoryBackend } from './memory/memory-backend.js';
export { createMemoryStore } from './memory/create-memory-store.js';
export { openSessionStore } from './jsonl/open-session-store.js';
export { isValidSessionId } from './session-id.js';
export { checkTitle, isPrintableTitle, printableTitle, PrintableTitle } from './store/check-title.js';
export { materializeLogFile } from './jsonl/materialize-log-file.js';
export { rewriteLogFile, type RewriteOutcome, type RewriteStep } from './jsonl/rewrite-log-file.js';
