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
      `Only one writer may hold a session: fork it instead (fork("${id}", { atSeq }) reads its stored events), or close it there first.`,
    { sessionId: id, holder },
  );
}
