/**
 * @module claude-store-error
 * The one error class of dsh-claude-agent-sdk. Codes come from one table; the code union is its keys.
 * Failures of the dsh store underneath (storage, corruption) stay `SessionError`s from dsh-session.
 */

/** Every refusal of the Claude session store and `forkClaudeSession`, with when it happens. */
export const CLAUDE_STORE_ERROR_CODES = {
  INVALID_KEY:
    'a projectKey, sessionId or subpath that is not a string, empty, longer than 1024 characters, holds a control character or backslash, is "." or "..", or (projectKey, sessionId) holds "/"; a subpath may hold "/" only between non-empty segments other than "." and ".."; a key whose getter or proxy trap throws',
  INVALID_ENTRY:
    'an entry that is not a plain JSON object with a string `type` (or a `uuid` that is not a string), an entry over 64 MiB of JSON or a batch over 256 MiB, or one whose reading throws (a getter, a proxy); nothing of the batch is stored',
  INVALID_CUT: 'a fork `at` that is the uuid of no entry of the main transcript; nothing is created',
  SESSION_NOT_FOUND: 'a fork of a key that was never written',
  SESSION_EXISTS: 'a fork to a sessionId that already holds a transcript; nothing is created',
  KEY_MISMATCH:
    'the dsh session derived from a key records another key (a hash collision or a foreign session); nothing is read or written',
  SESSION_BUSY: 'another process held the key for longer than `busyTimeoutMs` while this one waited to append or delete',
  STORE_CLOSED: 'a call after `close()`',
  INVALID_STORE: 'forkClaudeSession given a store that createClaudeSessionStore did not make',
} as const;

/** A code of `CLAUDE_STORE_ERROR_CODES`. */
export type ClaudeStoreErrorCode = keyof typeof CLAUDE_STORE_ERROR_CODES;

const MARK = Symbol.for('dsh.ClaudeStoreError');

/**
 * The only error this package throws itself: a stable `code` and a message saying what was expected
 * and what came. `ClaudeStoreError.is()` recognises instances from another installed copy.
 */
export class ClaudeStoreError extends Error {
  override readonly name = 'ClaudeStoreError';
  readonly code: ClaudeStoreErrorCode;
  readonly [MARK] = true;

  constructor(code: ClaudeStoreErrorCode, message: string, options: { cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
  }

  static is(value: unknown): value is ClaudeStoreError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
