import { SessionError, type LeaseHolder } from 'dsh-session';

/** `SESSION_BUSY` naming the holder and suggesting a fork (the wording of the JSONL store). @internal */
export function busyError(id: string, holder: LeaseHolder): SessionError {
  return new SessionError(
    'SESSION_BUSY',
    `Session ${id} is open for writing by pid ${String(holder.pid)} on ${holder.host} since ${new Date(holder.since).toISOString()}. ` +
      `Only one writer may hold a session: fork it instead (fork("${id}", { atSeq }) reads its stored events), or close it there first.`,
    { sessionId: id, holder },
  );
}

/** `SESSION_BUSY` for a writer whose lease was taken over: nothing of its batch was written. @internal */
export function leaseLostError(id: string, fromSeq: number, holder: LeaseHolder | undefined): SessionError {
  const now = holder === undefined ? 'nobody holds it now' : `pid ${String(holder.pid)} on ${holder.host} holds it since ${new Date(holder.since).toISOString()}`;
  return new SessionError(
    'SESSION_BUSY',
    `Session ${id}: this writer lost its lease (it stayed silent longer than the lease and was taken over; ${now}). ` +
      `Its events from seq ${String(fromSeq)} on were not written. Fork the session (fork("${id}", { atSeq })) or reopen it to continue.`,
    { sessionId: id, ...(holder === undefined ? {} : { holder }) },
  );
}

/** `SESSION_NOT_FOUND` for `id`. @internal */
export function notFoundError(id: string): SessionError {
  return new SessionError('SESSION_NOT_FOUND', `Session ${id} not found.`, { sessionId: id });
}

/** `SESSION_EXISTS` for `id`. @internal */
export function existsError(id: string): SessionError {
  return new SessionError('SESSION_EXISTS', `Session ${id} already exists; choose another id.`, { sessionId: id });
}

/** A lease row's holder columns as a `LeaseHolder`. @internal */
export function holderOf(row: { holder_host: string | null; holder_pid: number | null; holder_since: string | null }): LeaseHolder | undefined {
  if (row.holder_host === null || row.holder_pid === null || row.holder_since === null) return undefined;
  return { host: row.holder_host, pid: row.holder_pid, since: Number(row.holder_since) };
}
