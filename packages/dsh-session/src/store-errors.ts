/**
 * @module The store's common refusals (`SESSION_NOT_FOUND`, `SESSION_EXISTS`, `SESSION_BUSY`, …) worded once for every backend.
 */
import { SessionError, type LeaseHolder } from './session-error.js';

/** `SESSION_NOT_FOUND` for `id`. */
export function notFoundError(id: string): SessionError {
  return new SessionError('SESSION_NOT_FOUND', `Session ${id} not found.`, { sessionId: id });
}

/** `SESSION_EXISTS` for `id`. */
export function existsError(id: string): SessionError {
  return new SessionError('SESSION_EXISTS', `Session ${id} already exists; choose another id.`, { sessionId: id });
}

/** `SESSION_BUSY` naming the holder and suggesting a fork. */
export function busyError(id: string, holder: LeaseHolder): SessionError {
  return new SessionError(
    'SESSION_BUSY',
    `Session ${id} is open for writing by pid ${holder.pid} on ${holder.host} since ${new Date(holder.since).toISOString()}. ` +
      'Only one writer may hold a session: fork it instead (a fork reads its stored events), or close it there first.',
    { sessionId: id, holder },
  );
}

/** `SESSION_BUSY` for a writer whose lease another process took over: it writes nothing more. */
export function leaseLost(id: string, path: string): SessionError {
  return new SessionError(
    'SESSION_BUSY',
    `Lost the lease on session ${id}: another process took it over, so nothing more is written to ${path} by this writer. Reopen the session (or fork it) to continue.`,
    { sessionId: id },
  );
}

/** `WRITE_FAILED` naming what could not be done, with the OS error as cause. */
export function writeFailed(id: string, what: string, cause: unknown): SessionError {
  return new SessionError('WRITE_FAILED', `Could not ${what} session ${id}: ${(cause as Error).message}`, { sessionId: id, cause });
}
