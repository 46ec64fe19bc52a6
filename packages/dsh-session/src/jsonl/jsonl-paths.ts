/**
 * @module Where the JSONL backend keeps things: `logFile` (`<dir>/<id>.jsonl`, the id checked again),
 * `leasesDir` (`<dir>/.leases`) and `fileExists`, the one synchronous stat a create or an acquire asks.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { errorCode } from './durable-files.js';
import { SessionError } from '../session-error.js';
import { isValidSessionId } from '../session-id.js';

/** The folder of the sessions' leases inside a JSONL directory. */
export function leasesDir(dir: string): string {
  return join(dir, '.leases');
}

/** The log file of session `id` in `dir`. Ids are validated by the store; checked again so no caller can name a path outside `dir`. */
export function logFile(dir: string, id: string): string {
  if (!isValidSessionId(id)) throw new SessionError('INVALID_SESSION_ID', `Invalid session id ${JSON.stringify(id)}.`);
  return join(dir, `${id}.jsonl`);
}

/**
 * Whether `path` exists. Synchronous on purpose: one stat costs less than a thread-pool round trip
 * (a create asks once, before its lease); async for its callers.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async for its callers
export async function fileExists(path: string): Promise<boolean> {
  try {
    statSync(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}
