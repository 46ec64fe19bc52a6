/**
 * @module `openSessionStore({ dir })`: the JSONL directory store, the embedded default.
 */
import { createJsonlBackend } from './jsonl-backend.js';
import { SessionError } from '../session-error.js';
import { createSessionStore, type SessionStore } from '../store/session-store.js';

/**
 * Opens the JSONL directory store (created if missing): one file per session at `<dir>/<id>.jsonl`,
 * durable appends with group commit, one writer per session across processes.
 */
export async function openSessionStore(options: { dir: string; now?: () => number }): Promise<SessionStore> {
  let backend;
  try {
    backend = await createJsonlBackend(options);
  } catch (error) {
    if (SessionError.is(error)) throw error;
    throw new SessionError('STORAGE_ERROR', `Cannot open the session store at ${options.dir}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return createSessionStore({ backend, ...(options.now === undefined ? {} : { now: options.now }) });
}
