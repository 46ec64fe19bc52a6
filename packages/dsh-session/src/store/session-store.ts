/**
 * `SessionStore` (SPEC §11, §12) over any `SessionBackend`. Each operation lives in its own module
 * taking the store's `StoreContext`: create, open, observe/inspect, fork, list; this file wires them.
 */
import { hostname } from 'node:os';
import type { FormatVersion, SessionEvent, SessionHeader } from 'dsh-codec';
import { createSession, type CreateSessionOptions } from './create-session.js';
import { findForkChild } from './find-fork-child.js';
import { forkSession, type ForkSessionOptions } from './fork-session.js';
import { importSession, type ImportedArtifact } from './import-session.js';
import { listSessions } from './list-sessions.js';
import { observeSession, observeStored } from './observe-session.js';
import { openSession } from './open-session.js';
import { reopenSession } from './reopen-session.js';
import type { SessionBackend } from '../session-backend.js';
import { fastBackendOf } from '../backend-views.js';
import { SessionError } from '../session-error.js';
import { assertSessionId, isValidSessionId } from '../session-id.js';
import type { SessionObservation } from './session-observation.js';
import type { Session } from '../session/session.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';
import { watchSession } from './watch-session.js';
import { busyError } from '../store-errors.js';
import type { SessionSummary } from './summarize.js';

export type { CreateSessionOptions } from './create-session.js';
export type { ForkSessionOptions } from './fork-session.js';

/** What `inspect` reports about a stored session, without writing anything. */
export type SessionInspection = {
  header: SessionHeader;
  events: readonly SessionEvent[];
  /** True when `open` would repair: an open turn to close, or a torn final line to drop. */
  needsRepair: boolean;
  /** The format version the log is stored in (it is read as the current version either way). */
  formatVersion: FormatVersion;
  /** A torn final line, if the log has one. */
  tornTail?: { offset: number; line: number };
};

/** A durable store of sessions (SPEC §11, §12): one writer per session, exact forks, crash repair on open. */
export interface SessionStore {
  /** Creates and persists a new session (with its title and config) and returns it open for writing. */
  create(options?: CreateSessionOptions): Promise<Session>;
  /** Resumes a stored session under its single-writer lease, closing an interrupted turn (§6). */
  open(id: string): Promise<Session>;
  /**
   * Opens again a session this store handed out and `session` closed (closing it first if it is
   * open): when nothing wrote its log since (JSONL: checked by a stat and one small read), the new
   * Session continues from `session`'s events in memory without reading the log — a writer that
   * lets the lease go between bursts pays nothing for the history; else as `open(session.id)`.
   */
  reopen(session: Session): Promise<Session>;
  /**
   * One immutable observation: from memory when this store holds the session open, else the stored
   * log read and decoded once. Never writes. Hand it to `fork` to fork without reading it again.
   */
  observe(id: string): Promise<SessionObservation>;
  /** The stored log (even when this store holds the session open) and whether it needs repair; never writes. */
  inspect(id: string): Promise<SessionInspection>;
  /**
   * Forks a session id or an observation this store produced at exactly `atSeq` (or at the latest
   * closed turn); the child is persisted atomically before it is returned. `INVALID_OBSERVATION` for
   * an observation this store did not produce.
   */
  fork(source: string | SessionObservation, options: ForkSessionOptions): Promise<Session>;
  /**
   * Stores a complete artifact (header and events, e.g. from dsh-import) atomically as a new session,
   * without opening it: `SESSION_EXISTS` when its id is taken, `INVALID_EVENT` unless it is a valid
   * current-format log, `SESSION_NOT_FOUND` when a fork child's parent is not in this store.
   */
  import(artifact: ImportedArtifact): Promise<void>;
  /**
   * Every stored session with its lineage, most recently updated first. `{ busy: true }`: only the
   * sessions held now (open in this store, or leased by a live holder elsewhere) — the others'
   * summaries are not read, so the cost follows the held sessions, not the whole store.
   */
  list(options?: { busy?: boolean }): Promise<SessionSummary[]>;
  /** True when a session with this id exists (live here or stored); false for an invalid id. */
  has(id: string): Promise<boolean>;
  /** Deletes a stored session that nobody holds open. */
  delete(id: string): Promise<void>;
  /**
   * Present when the backend can watch sessions written elsewhere (PostgreSQL): `listener` gets the
   * stored events of `id` from `fromSeq` on, then every batch any writer commits, in order, each once,
   * until the returned function is called.
   */
  watch?(id: string, fromSeq: number, listener: (events: readonly SessionEvent[]) => void): Promise<() => void>;
  /**
   * Present when the backend indexes fork Idempotency-Keys (PostgreSQL): the frozen header of the
   * child forked under `key` (`forkRequest.key`), or undefined, without reading every session. Without
   * it, find such a child in `list()` (summaries carry `forkRequest`). `INVALID_FORK_REQUEST` for a
   * key `fork` would refuse.
   */
  findForkChild?(key: string): Promise<SessionHeader | undefined>;
  /** Closes every session this store holds open, then the backend. */
  close(): Promise<void>;
}

/** Options of `createSessionStore`. */
export type SessionStoreOptions = { backend: SessionBackend; now?: () => number };

/** Every failure leaves the store as a `SessionError`; unexpected storage errors become `STORAGE_ERROR`. */
async function guard<T>(operation: () => Promise<T>): Promise<T> {
  try {
    return await operation();
  } catch (error) {
    if (SessionError.is(error)) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new SessionError('STORAGE_ERROR', `The session storage failed: ${message}`, { cause: error });
  }
}

async function inspectSession(context: StoreContext, id: string): Promise<SessionInspection> {
  const observation = await observeStored(context, id);
  return {
    header: observation.header,
    events: observation.events,
    needsRepair: observation.needsRepair,
    formatVersion: observation.formatVersion,
    ...(observation.tornTail === undefined ? {} : { tornTail: { ...observation.tornTail } }),
  };
}

async function deleteSession(context: StoreContext, id: string): Promise<void> {
  assertStoreOpen(context);
  assertSessionId(id);
  if (context.live.has(id) || context.reserved.has(id)) {
    const holder = { pid: process.pid, host: hostname(), since: context.openedAt.get(id) ?? context.now() };
    throw new SessionError('SESSION_BUSY', `${busyError(id, holder).message} Close it before deleting it.`, { sessionId: id, holder });
  }
  await context.backend.delete(id);
  context.summaries.delete(id);
}

async function closeStore(context: StoreContext): Promise<void> {
  if (context.closed) return;
  context.closed = true;
  const results = await Promise.allSettled([...context.live.values()].map((session) => session.close()));
  await context.backend.close();
  const failure = results.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw failure.reason;
}

/** A `SessionStore` over any `SessionBackend`. */
export function createSessionStore(options: SessionStoreOptions): SessionStore {
  const context: StoreContext = {
    backend: fastBackendOf(options.backend),
    now: options.now ?? Date.now,
    origin: {},
    live: new Map(),
    openedAt: new Map(),
    reserved: new Set(),
    summaries: new Map(),
    closed: false,
  };
  return {
    create: (createOptions = {}) => guard(() => createSession(context, createOptions)),
    open: (id) => guard(() => openSession(context, id)),
    reopen: (session) => guard(() => reopenSession(context, session)),
    observe: (id) => guard(() => observeSession(context, id)),
    inspect: (id) => guard(() => inspectSession(context, id)),
    fork: (source, forkOptions) => guard(() => forkSession(context, source, forkOptions)),
    import: (artifact) => guard(() => importSession(context, artifact)),
    list: (options) => guard(() => listSessions(context, options)),
    has: (id) =>
      guard(async () => {
        if (!isValidSessionId(id)) return false;
        if (context.live.has(id)) return true;
        return context.backend.exists(id);
      }),
    delete: (id) => guard(() => deleteSession(context, id)),
    close: () => guard(() => closeStore(context)),
    ...(context.backend.watch === undefined
      ? {}
      : {
          watch: (id: string, fromSeq: number, listener: (events: readonly SessionEvent[]) => void) =>
            guard(() => watchSession(context, id, fromSeq, listener)),
        }),
    ...(context.backend.findForkChild === undefined ? {} : { findForkChild: (key: string) => guard(() => findForkChild(context, key)) }),
  };
}
