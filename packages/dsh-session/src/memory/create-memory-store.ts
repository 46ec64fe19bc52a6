/**
 * @module `createMemoryStore()`: a `SessionStore` over the memory backend.
 */
import { createMemoryBackend } from './memory-backend.js';
import type { SessionBackend } from '../session-backend.js';
import { createSessionStore, type SessionStore } from '../store/session-store.js';

/**
 * A `SessionStore` kept in process memory (tests, ephemeral hosts). Pass a shared `backend` from
 * `createMemoryBackend()` to give several stores one storage, like processes sharing a directory.
 */
export function createMemoryStore(options: { backend?: SessionBackend; now?: () => number } = {}): SessionStore {
  return createSessionStore({
    backend: options.backend ?? createMemoryBackend(),
    ...(options.now === undefined ? {} : { now: options.now }),
  });
}
