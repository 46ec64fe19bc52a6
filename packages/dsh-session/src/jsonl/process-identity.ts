/**
 * Who this process is, and whether another process is still alive — for the single-writer lease.
 * A pid alone is not an identity: pids are reused, and the same pid names different processes in
 * different PID namespaces (a container sharing the data directory, even with the host's hostname).
 * On Linux an identity is (host, boot id, PID namespace, pid, start time); a process is declared dead
 * only when that is *known*, never because it is invisible from here.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { hostname } from 'node:os';

/**
 * A process as recorded in a lease: pid and host, and where Linux tells them, its start time
 * (`/proc/PID/stat` field 22), its PID namespace (`pid:[inode]`) and the kernel's boot id.
 * For dsh-postgres's lease rows (`dsh-session/internal`).
 */
export type ProcessIdentity = { pid: number; host: string; start?: string; pidNamespace?: string; bootId?: string };

/** The initial PID namespace's fixed inode (`PROC_PID_INIT_INO`): a process in it sees every process of the machine. */
export const INITIAL_PID_NAMESPACE = 'pid:[4026531836]';

/** The `/proc/<pid>/stat` start time and state, or undefined where /proc is not available. */
function procStat(pid: number | 'self'): { start: string; state: string } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: fields resume after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const state = fields[0];
    const start = fields[19];
    return state === undefined || start === undefined ? undefined : { start, state };
  } catch {
    return undefined;
  }
}

function readOptional(read: () => string): string | undefined {
  try {
    return read().trim();
  } catch {
    return undefined;
  }
}

let self: ProcessIdentity | undefined;

/** This process (for dsh-postgres's lease rows, through `dsh-session/internal`). */
export function currentProcess(): ProcessIdentity {
  if (self === undefined) {
    const identity: ProcessIdentity = { pid: process.pid, host: hostname() };
    const start = procStat('self')?.start;
    const pidNamespace = readOptional(() => readlinkSync('/proc/self/ns/pid'));
    const bootId = readOptional(() => readFileSync('/proc/sys/kernel/random/boot_id', 'utf8'));
    if (start !== undefined) identity.start = start;
    if (pidNamespace !== undefined) identity.pidNamespace = pidNamespace;
    if (bootId !== undefined) identity.bootId = bootId;
    self = identity;
  }
  return self;
}

/** The pid of `pid` in its innermost namespace (last `NSpid` entry of `/proc/PID/status`). */
function innermostPid(pid: string): number | undefined {
  const status = readOptional(() => readFileSync(`/proc/${pid}/status`, 'utf8'));
  const line = status?.split('\n').find((entry) => entry.startsWith('NSpid:'));
  const last = line?.trim().split(/\s+/).at(-1);
  return last === undefined ? undefined : Number(last);
}

/**
 * Whether a process of another PID namespace is alive. Only an observer in the initial namespace sees
 * every process, so only it can know: the holder is dead when no visible process is in that namespace
 * any more, or the namespace has no process with that pid and start time. Anyone else assumes alive.
 */
function aliveInOtherNamespace(identity: ProcessIdentity, observer: ProcessIdentity): boolean {
  if (observer.pidNamespace !== INITIAL_PID_NAMESPACE || observer.pid !== process.pid) return true;
  let entries: string[];
  try {
    // pid 1 here is the initial namespace's own init, never a member of another namespace.
    entries = readdirSync('/proc').filter((name) => /^[0-9]+$/.test(name) && name !== '1');
  } catch {
    return true;
  }
  for (const pid of entries) {
    const stat = procStat(Number(pid));
    // Gone, or a zombie (whose namespace links cannot be read): not a live holder.
    if (stat === undefined || stat.state === 'Z' || stat.state === 'X') continue;
    let namespace: string;
    try {
      namespace = readlinkSync(`/proc/${pid}/ns/pid`);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') continue;
      // Not allowed to look (another user's process): we cannot know, so the holder may be this one.
      return true;
    }
    if (namespace !== identity.pidNamespace || innermostPid(pid) !== identity.pid) continue;
    if (identity.start === undefined || stat.start === identity.start) return true;
  }
  return false;
}

/**
 * False only when the recorded process is known to be gone: same host and an earlier boot; or same
 * boot and namespace, and no such pid, a zombie, or a pid now used by a process that started at
 * another time; or another namespace that the initial namespace no longer shows it in. A holder on
 * another host, or in a namespace this process cannot see into, counts as alive. `observer` is this
 * process (tests pass another to play a process elsewhere). For dsh-postgres, through `dsh-session/internal`.
 */
export function isProcessAlive(identity: ProcessIdentity, observer: ProcessIdentity = currentProcess()): boolean {
  const me = observer;
  if (identity.host !== me.host) return true;
  // Another boot of this machine: every process of that boot is gone (boot ids are per kernel boot).
  if (identity.bootId !== undefined && me.bootId !== undefined && identity.bootId !== me.bootId) return false;
  if (identity.pidNamespace !== undefined && me.pidNamespace !== undefined && identity.pidNamespace !== me.pidNamespace) {
    return aliveInOtherNamespace(identity, me);
  }
  if (identity.pid === me.pid) return identity.start === undefined || me.start === undefined || identity.start === me.start;
  try {
    process.kill(identity.pid, 0);
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = procStat(identity.pid);
  // With /proc available, a pid that vanished between the two checks has exited.
  if (stat === undefined) return me.start === undefined;
  if (stat.state === 'Z' || stat.state === 'X') return false;
  return identity.start === undefined || identity.start === stat.start;
}
