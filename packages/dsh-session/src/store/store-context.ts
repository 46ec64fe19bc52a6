/**
 * @module The state one `SessionStore` shares between its operations (each operation is its own module taking
 * this context): the backend, the sessions it holds open, ids reserved by creates and forks in flight.
 */
import { hostname } from 'node:os';
import type { SessionEvent } from 'dsh-codec';
import type { FastBackend, InheritedRecords } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import type { SessionInit } from '../session/session-init.js';
import { Session, writeError } from '../session/session.js';
import { busyError, existsError } from '../store-errors.js';
import { createdSink } from './store-sinks.js';
import type { SessionSummary } from './summarize.js';

/** @internal */
export type StoreContext = {
  /** The backend as the store works against it (`fastBackendOf`). */
  readonly backend: FastBackend;
  readonly now: () => number;
  /** The private token marking observations this store produced (see `session-observation.ts`). */
  readonly origin: object;
  /** Sessions this store holds open for writing. */
  readonly live: Map<string, Session>;
  /** When each live session was opened here (for busy errors). */
  readonly openedAt: Map<string, number>;
  /** Ids reserved by a create, open or fork in flight, so two of them in this store cannot race. */
  readonly reserved: Set<string>;
  /** Cached summaries of stored logs, keyed by id, valid while the backend's stamp is unchanged. */
  readonly summaries: Map<string, { stamp: string; summary: Omit<SessionSummary, 'busy'> }>;
  closed: boolean;
};

/** @internal Fails with `STORE_CLOSED` once the store is closed. */
export function assertStoreOpen(context: StoreContext): void {
  if (context.closed) throw new SessionError('STORE_CLOSED', 'This session store is closed.');
}

/** @internal `SESSION_BUSY` for a session this store itself holds (or is opening). */
export function heldHereError(context: StoreContext, id: string): SessionError {
  return busyError(id, { pid: process.pid, host: hostname(), since: context.openedAt.get(id) ?? context.now() });
}

/**
 * @internal Reserves a new id for a create or fork: `SESSION_EXISTS` when it is live or reserved here,
 * or — for an id the caller `named` — stored. A `generated` id (a random UUID) is not looked up: the
 * backend's atomic `create` refuses a taken id with the same `SESSION_EXISTS`, so asking first would
 * only cost one more `exists`. Release it with `context.reserved.delete(id)` on every failure path.
 */
export async function reserveNewId(context: StoreContext, id: string, origin: 'named' | 'generated' = 'named'): Promise<void> {
  if (context.live.has(id) || context.reserved.has(id)) throw existsError(id);
  context.reserved.add(id);
  if (origin === 'generated') return;
  try {
    if (await context.backend.exists(id)) throw existsError(id);
  } catch (error) {
    context.reserved.delete(id);
    throw error;
  }
}

/** @internal A release hook removing `id` from the live sessions once `session()` closes. */
export function forgetOnRelease(context: StoreContext, id: string, session: () => Session | undefined): () => void {
  return () => {
    if (context.live.get(id) === session()) context.live.delete(id);
  };
}

/**
 * @internal Makes a new session or fork child: the Session checks `init` (its seed, then its `appends`),
 * the backend creates the log with all of it in one atomic `create` (a fork child's inherited prefix
 * as `inherited` records, copied rather than encoded), and the Session is published as live holding
 * the writer that create returned. A refused seed or a failed create leaves nothing behind; the
 * caller releases the reserved id on failure.
 */
export async function persistNew(
  context: StoreContext,
  init: Omit<SessionInit, 'durableCount' | 'sink' | 'now'>,
  inherited?: InheritedRecords,
): Promise<Session> {
  const { id } = init.header;
  // The release hook reads `session` only once it is closed, long after this assignment.
  const sink = createdSink(forgetOnRelease(context, id, () => session));
  const session = new Session({ ...init, durableCount: 'all', sink, now: context.now });
  // Everything after the inherited prefix: a new session's whole log, a fork child's marker, closers, title and config.
  const from = session.firstLifecycleSeq;
  const events = session.eventsFrom(from);
  try {
    const { backend } = context;
    sink.hold(
      inherited === undefined ? await backend.create(id, init.header, events) : await backend.create(id, init.header, events, inherited),
    );
  } catch (error) {
    throw writeError(id, from, session.nextSeq, error);
  }
  context.reserved.delete(id);
  context.live.set(id, session);
  context.openedAt.set(id, context.now());
  return session;
}

/** @internal A standalone event (title, config) of a new session or fork child. */
export function standaloneEvent(seq: number, time: number, type: string, data: SessionEvent['data']): SessionEvent {
  return { seq, type, time, data };
}
