/**
 * @module `processesHolding`: which other processes have a file open, read from Linux's
 * `/proc/<pid>/fd` (each descriptor a link to the file it names). Elsewhere, or where `/proc`
 * cannot be read, none are known — the caller's other checks still hold.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process holding a file open: its pid and its command name (`/proc/<pid>/comm`). */
export type HoldingProcess = { pid: number; command: string };

function holds(pid: string, file: string): boolean {
  let descriptors: string[];
  try {
    descriptors = readdirSync(`/proc/${pid}/fd`);
  } catch {
    // Gone meanwhile, or another user's process (its descriptors are not ours to read).
    return false;
  }
  for (const fd of descriptors) {
    try {
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file) return true;
    } catch {
      // Closed meanwhile.
    }
  }
  return false;
}

/**
 * The processes other than this one that have `file` (an absolute path without symlinks, as
 * `realpath` gives it) open; `[]` where `/proc` is not there. Synchronous: many small reads, and
 * the command has nothing else to do meanwhile.
 */
export function processesHolding(file: string): HoldingProcess[] {
  if (process.platform !== 'linux') return [];
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name) && Number(name) !== process.pid);
  } catch {
    return [];
  }
  const found: HoldingProcess[] = [];
  for (const pid of pids) {
    if (!holds(pid, file)) continue;
    let command = '?';
    try {
      command = readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
    } catch {
      // Exited meanwhile: still named by its pid.
    }
    found.push({ pid: Number(pid), command });
  }
  return found;
}
