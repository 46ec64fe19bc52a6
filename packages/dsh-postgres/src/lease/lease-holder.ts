/**
 * Who holds a session's lease, as its row records it: host id, pid and since, and the process's start
 * time, PID namespace and boot id (schema step 6; dsh-session's process identity, as the JSONL lease
 * records it). A host id is only a name — two containers, or two machines, may share one — so a pid
 * is checked only when the holder recorded the same namespace and boot as this process: only then
 * does the pid name a process this one can see. Any other holder is taken over only once its lease
 * expires.
 */
import type { LeaseHolder } from 'dsh-session';
import { currentProcess, isProcessAlive, type ProcessIdentity } from 'dsh-session/internal';

/** The holder columns of a session row, as read. @internal */
export type HolderRow = {
  holder_host: string | null;
  holder_pid: number | null;
  holder_since: string | null;
  holder_start: string | null;
  holder_pid_namespace: string | null;
  holder_boot_id: string | null;
};

/** The columns of `HolderRow`, for a SELECT list. @internal */
export const HOLDER_COLUMNS = 'holder_host, holder_pid, holder_since, holder_start, holder_pid_namespace, holder_boot_id';

/** This process's `[holder_start, holder_pid_namespace, holder_boot_id]` (null where the system does not tell them). @internal */
export function identityColumns(): [start: string | null, pidNamespace: string | null, bootId: string | null] {
  const me = currentProcess();
  return [me.start ?? null, me.pidNamespace ?? null, me.bootId ?? null];
}

/** A lease row's holder columns as a `LeaseHolder`. @internal */
export function holderOf(row: Pick<HolderRow, 'holder_host' | 'holder_pid' | 'holder_since'>): LeaseHolder | undefined {
  if (row.holder_host === null || row.holder_pid === null || row.holder_since === null) return undefined;
  return { host: row.holder_host, pid: row.holder_pid, since: Number(row.holder_since) };
}

/**
 * Whether the holder of `row` is known to be gone without waiting for its lease to expire: it runs
 * under `hostId`, recorded this process's PID namespace and boot id (a holder of an older
 * dsh-postgres recorded neither: it waits for expiry), and its pid names no process with its start
 * time. @internal
 */
export function holderIsGone(row: HolderRow, hostId: string): boolean {
  if (row.holder_host !== hostId || row.holder_pid === null) return false;
  const me = currentProcess();
  if (row.holder_pid_namespace !== (me.pidNamespace ?? null) || row.holder_boot_id !== (me.bootId ?? null)) return false;
  const identity: ProcessIdentity = { pid: row.holder_pid, host: me.host };
  if (row.holder_start !== null) identity.start = row.holder_start;
  if (row.holder_pid_namespace !== null) identity.pidNamespace = row.holder_pid_namespace;
  if (row.holder_boot_id !== null) identity.bootId = row.holder_boot_id;
  return !isProcessAlive(identity, me);
}
