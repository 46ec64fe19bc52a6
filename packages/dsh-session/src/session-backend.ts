/**
 * @module The public storage interface under `SessionStore` (SPEC §8): what a third-party backend
 * implements. Async and free of filesystem assumptions, so a networked backend can implement it.
 * A backend stores current-format (V7) records and hands them back as it got them; the store
 * decodes, repairs and validates. Every write goes through a `SessionWriter`, which holds the
 * single-writer lease. dsh's own backends (JSONL, memory, PostgreSQL) also carry faster read and
 * inherit forms the store recognises; those are no part of this contract (`dsh-session/internal`).
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { LeaseHolder } from './session-error.js';

/**
 * A stored log as a backend reads it back: the header and every event it holds, in seq order, as
 * they were given to `create`, `append` and `replace`. A fresh array per read: the store keeps it
 * (frozen), and validates its events before a Session builds on them.
 */
export type StoredLog = { header: SessionHeader; events: readonly SessionEvent[] };

/**
 * A stored session's id and a stamp that changes whenever its log changes (for caching summaries);
 * `held`, when the backend read it with the list, says whether a live holder has its lease (so
 * `list()` need not ask `holder()` per session).
 */
export type StoredSessionRef = { id: string; stamp: string; held?: boolean };

/** Write access to one session, held under its single-writer lease until `release()`. */
export interface SessionWriter {
  /** Reads the log as stored now (under the lease, so nobody else changes it). */
  read(): Promise<StoredLog>;
  /**
   * Appends `events` durably as one batch; fails when the stored log does not end just before
   * `expectedNextSeq`. A failed append leaves the stored log as it was before the call.
   */
  append(expectedNextSeq: number, events: readonly SessionEvent[]): Promise<void>;
  /** Atomically replaces the whole log with a current-format header and these events. */
  replace(header: SessionHeader, events: readonly SessionEvent[]): Promise<void>;
  /** Gives the lease up; the writer is unusable afterwards. */
  release(): Promise<void>;
}

/**
 * The operations a `SessionStore` needs from its storage. Errors are `SessionError`s. Five are
 * required; `exists`, `holder` and `close` are optional (without `exists` the store asks `read`
 * whether an id is taken; without `holder` it knows a held session from `list()`'s `held`, which such
 * a backend must then report; without `close` there is nothing to close).
 */
export interface SessionBackend {
  /**
   * Creates a session atomically with its header and events and returns its writer: after a crash
   * there is either no session or all of it. `SESSION_EXISTS` when the id is taken.
   */
  create(id: string, header: SessionHeader, events: readonly SessionEvent[]): Promise<SessionWriter>;
  /** Takes the single-writer lease. `SESSION_NOT_FOUND`; `SESSION_BUSY` naming a live holder. */
  acquire(id: string): Promise<SessionWriter>;
  /** Reads a stored log without a lease (it may be growing). `SESSION_NOT_FOUND`. */
  read(id: string): Promise<StoredLog>;
  /** Whether a session with this id is stored (optional: else the store reads it and catches `SESSION_NOT_FOUND`). */
  exists?(id: string): Promise<boolean>;
  list(): Promise<StoredSessionRef[]>;
  /** The live holder of the session's lease, if any (optional for a backend whose `list()` reports `held`). */
  holder?(id: string): Promise<LeaseHolder | undefined>;
  /** Deletes a session under its lease (`SESSION_BUSY` when held, `SESSION_NOT_FOUND`). */
  delete(id: string): Promise<void>;
  /** Releases what the backend holds (optional). */
  close?(): Promise<void>;
}
