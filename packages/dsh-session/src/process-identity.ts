/**
 * Who this process is, and whether another process is still alive — for the single-writer lease.
 * A pid alone is not an identity (pids are reused), so on Linux the process start time is compared too.
 */
import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';

/** A process as recorded in a lease: pid, host and (where the OS tells) its start time. */
export type ProcessIdentity = { pid: number; host: string; start?: string };

/** The `/proc/<pid>/stat` start time and state, or undefined where /proc is not available. */
function procStat(pid: number): { start: string; state: string } | undefined {
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

let self: ProcessIdentity | undefined;

/** This process. */
export function currentProcess(): ProcessIdentity {
  if (self === undefined) {
    const start = procStat(process.pid)?.start;
    self = start === undefined ? { pid: process.pid, host: hostname() } : { pid: process.pid, host: hostname(), start };
  }
  return self;
}

/**
 * False only when the recorded process is known to be gone: same host, and no such pid, a zombie, or a
 * pid now used by a process that started at another time. A holder on another host counts as alive.
 */
export function isProcessAlive(identity: ProcessIdentity): boolean {
  const me = currentProcess();
  if (identity.host !== me.host) return true;
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
