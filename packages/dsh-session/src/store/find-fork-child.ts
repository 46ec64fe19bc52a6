/** `SessionStore.findForkChild`, present when the backend can look fork children up by key (PostgreSQL). */
import type { SessionHeader } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import { SessionError } from '../session-error.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

/** What a fork's Idempotency-Key is (the same rule `fork` applies to `forkRequest.key`). */
const FORK_KEY = /^[\x21-\x7e]{1,255}$/;

/**
 * @internal The header of the fork child stored under Idempotency-Key `key` (its V5 `forkRequest.key`),
 * frozen, or undefined. `INVALID_FORK_REQUEST` for a key `fork` would refuse; nothing is sent to the backend then.
 */
export async function findForkChild(context: StoreContext, key: string): Promise<SessionHeader | undefined> {
  assertStoreOpen(context);
  if (typeof key !== 'string' || !FORK_KEY.test(key)) {
    const shown = typeof key === 'string' ? JSON.stringify(key.length > 60 ? `${key.slice(0, 60)}…` : key) : typeof key;
    throw new SessionError(
      'INVALID_FORK_REQUEST',
      `Invalid Idempotency-Key to look up: expected 1-255 visible ASCII characters, received ${shown}.`,
    );
  }
  const header = await context.backend.findForkChild?.(key);
  if (header === undefined) return undefined;
  if (header.forkRequest?.key !== key) {
    throw new SessionError(
      'CORRUPT',
      `The backend answered the fork lookup of Idempotency-Key ${JSON.stringify(key)} with session ${header.id}, whose header holds another key.`,
      {
        sessionId: header.id,
      },
    );
  }
  return deepFreeze({ ...header });
}
