/**
 * Process-level test helpers (Linux `/proc`): the processes below a pid, whether a pid still runs,
 * and whether anything still accepts connections on a port — to prove a stop leaves no orphan.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { connect } from 'node:net';

function parentOf(pid: number): number | undefined {
  try {
    // The command name (field 2) is in parentheses and may hold spaces: parse after the last ')'.
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[1]);
  } catch {
    return undefined;
  }
}

/** Every live process below `pid` (children, grandchildren, …), read from `/proc`. */
export function descendantsOf(pid: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const parent = parentOf(Number(entry));
    if (parent === undefined) continue;
    children.set(parent, [...(children.get(parent) ?? []), Number(entry)]);
  }
  const found: number[] = [];
  const queue = [...(children.get(pid) ?? [])];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    found.push(next);
    queue.push(...(children.get(next) ?? []));
  }
  return found;
}

/** The command line of `pid` (arguments joined by spaces), or '' once it has exited. */
export function commandLineOf(pid: number): string {
  try {
    return readFileSync(`/proc/${String(pid)}/cmdline`, 'utf8')
      .split('\0')
      .join(' ')
      .trim();
  } catch {
    return '';
  }
}

/** True while `pid` exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${String(pid)}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** True when a TCP connection to 127.0.0.1:`port` is accepted. */
export function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => {
      resolve(false);
    });
  });
}

/** Polls `condition` every 100 ms until it holds; rejects with `what` after `limitMs` (a bound, not a speed claim). */
export async function waitFor(what: string, condition: () => boolean | Promise<boolean>, limitMs = 20_000): Promise<void> {
  const deadline = Date.now() + limitMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${String(limitMs)} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
