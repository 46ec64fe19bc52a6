/**
 * @module `defaultMaxConnections`: how many connections a served host keeps open when not told,
 * derived from the process's descriptor limit so that connections alone can never exhaust it.
 */
import { readFileSync } from 'node:fs';

/** The default when the descriptor limit cannot be read (not Linux, no `/proc`). */
export const FALLBACK_MAX_CONNECTIONS = 256;
/** The default never exceeds this, however high the descriptor limit. */
const CEILING = 4096;

/**
 * The soft `RLIMIT_NOFILE` of this process as `/proc/self/limits` states it: a number, `Infinity`
 * for `unlimited`, or undefined when it cannot be read.
 */
function openFileLimit(): number | undefined {
  let text: string;
  try {
    text = readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
  const soft = /^Max open files\s+(\S+)/m.exec(text)?.[1];
  if (soft === 'unlimited') return Infinity;
  return soft !== undefined && /^\d+$/.test(soft) ? Number(soft) : undefined;
}

/**
 * Half the process's descriptor limit (the other half stays for session logs, the store and Node
 * itself), between 16 and 4096; `FALLBACK_MAX_CONNECTIONS` when the limit cannot be read.
 */
export function defaultMaxConnections(): number {
  const limit = openFileLimit();
  if (limit === undefined) return FALLBACK_MAX_CONNECTIONS;
  return Math.max(16, Math.min(CEILING, Math.floor(limit / 2)));
}
