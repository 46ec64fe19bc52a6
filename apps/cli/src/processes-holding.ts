/**
 * @module `processesHolding`: which other processes have a file open for writing, read from Linux's
 * `/proc/<pid>/fd` (each descriptor a link to the file it names) and `fdinfo` (its access mode); a
 * reader (`tail -f`, a viewer) does not count. Elsewhere, or where `/proc` cannot be read, none are
 * known — the caller's other checks still hold.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process holding a file open for writing: its pid and its command name (`/proc/<pid>/comm`). */
export type HoldingProcess = { pid: number; command: string };

/** Whether descriptor `fd` of `pid` may write (`flags` in `/proc/<pid>/fdinfo/<fd>`: access mode not O_RDONLY). */
function writes(pid: string, fd: string): boolean {
  try {
    const flags = /^flags:\s*([0-7]+)/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, 'utf8'))?.[1];
    // Unreadable flags count as writing: the refusal errs on the safe side.
    return flags === undefined || (parseInt(flags, 8) & 0o3) !== 0;
  } catch {
    return true;
  }
}

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
      if (readlinkSync(`/proc/${pid}/fd/${fd}`) === file && writes(pid, fd)) return true;
    } catch {
      // Closed meanwhile.
    }
  }
  return false;
}

/**
 * The processes other than this one that have `file` (an absolute path without symlinks, as
 * `realpath` gives it) open for writing; `[]` where `/proc` is not there. Synchronous: many small reads, and
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
