/**
 * @module What a writer is told about the lease: `SESSION_BUSY` naming the holder, and why a held lease was lost.
 */
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

/**
 * How a lease generation was taken from a holder that had not released it (column `taken_over`,
 * schema step 6): the generation replaced, why — it had `expired`, or its process was found `gone` on
 * this host — the pid that holder had recorded, and who took it when. @internal
 */
export type Takeover = { generation: number; reason: 'expired' | 'gone'; holderPid: number | null; host: string; pid: number; at: number };

/** What a writer that lost its lease reads of its session's row. @internal */
export type LostLeaseRow = { generation: string; taken_over: Takeover | null; holder: LeaseHolder | undefined };

/**
 * `SESSION_BUSY` for a writer of generation `held` whose lease is gone, nothing of its batch from
 * `fromSeq` written, with the true reason: taken over after it expired (not renewed for `leaseMs`),
 * taken over because its recorded process was found gone, or — when the row moved on further (taken
 * over again, or changed outside dsh-postgres) — only that the row changed. @internal
 */
export function leaseLostError(id: string, fromSeq: number, held: string, row: LostLeaseRow, leaseMs: number): SessionError {
  const takeover = row.taken_over;
  let why: string;
  if (takeover !== null && String(takeover.generation) === held) {
    const by = `taken over by host ${takeover.host} pid ${String(takeover.pid)} at ${new Date(takeover.at).toISOString()}`;
    why =
      takeover.reason === 'expired'
        ? `${by} after this holder's lease expired (it was not renewed for ${String(leaseMs)} ms: this process was paused or starved, or could not reach the database)`
        : `${by}, which found the process this lease recorded (pid ${String(takeover.holderPid)}, same host id, PID namespace and boot) gone`;
  } else {
    why = `the lease row changed: it is at generation ${row.generation}, this writer held generation ${held}`;
  }
  const holder = row.holder;
  const now =
    holder === undefined
      ? 'nobody holds it now'
      : `pid ${String(holder.pid)} on ${holder.host} holds it since ${new Date(holder.since).toISOString()}`;
  return new SessionError(
    'SESSION_BUSY',
    `Session ${id}: this writer lost its lease (generation ${held}): ${why}; ${now}. ` +
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
