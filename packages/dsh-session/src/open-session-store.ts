import { createJsonlBackend } from './jsonl-backend.js';
import { createSessionStore, type SessionStore } from './session-store.js';

/**
 * Opens the JSONL directory store (created if missing): one file per session at `<dir>/<id>.jsonl`,
 * durable appends with group commit, one writer per session across processes.
 */
export async function openSessionStore(options: { dir: string; now?: () => number }): Promise<SessionStore> {
  const backend = await createJsonlBackend(options);
  return createSessionStore({ backend, ...(options.now === undefined ? {} : { now: options.now }) });
}
