/**
 * The state one `SessionStore` shares between its operations (each operation is its own module taking
 * this context): the backend, the sessions it holds open, ids reserved by creates and forks in flight.
 */
import { hostname } from 'node:os';
import type { SessionEvent } from 'dsh-codec';
import type { FastBackend } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import type { Session } from '../session/session.js';
import { busyError, existsError } from '../store-errors.js';
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
 * @internal Makes a new Session (a created session or fork child) durable through its creating sink,
 * then publishes it as live; a failure releases the reserved id and leaves nothing behind.
 */
export async function persistNew(context: StoreContext, session: Session): Promise<Session> {
  try {
    await session.flush();
  } catch (error) {
    context.reserved.delete(session.id);
    throw error;
  }
  context.reserved.delete(session.id);
  context.live.set(session.id, session);
  context.openedAt.set(session.id, context.now());
  return session;
}

/** @internal A standalone event (title, config) of a new session or fork child. */
export function standaloneEvent(seq: number, time: number, type: string, data: SessionEvent['data']): SessionEvent {
  return { seq, type, time, data };
}
