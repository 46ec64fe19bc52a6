/**
 * @module Session ids (SPEC §8): `[A-Za-z0-9_-]{1,128}`, checked before an id can reach storage.
 */
import { SessionError } from './session-error.js';

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/;

/** True when `id` is a valid session id: 1–128 of `A-Z a-z 0-9 _ -` (so it can never name a path). */
export function isValidSessionId(id: unknown): id is string {
  return typeof id === 'string' && SESSION_ID.test(id);
}

/** Throws `INVALID_SESSION_ID` unless `id` is a valid session id. */
export function assertSessionId(id: unknown): asserts id is string {
  if (isValidSessionId(id)) return;
  const shown = typeof id === 'string' ? JSON.stringify(id.length > 60 ? `${id.slice(0, 60)}…` : id) : typeof id;
  throw new SessionError(
    'INVALID_SESSION_ID',
    `Invalid session id: expected 1–128 characters of A-Z, a-z, 0-9, "_" or "-", received ${shown}.`,
  );
}
