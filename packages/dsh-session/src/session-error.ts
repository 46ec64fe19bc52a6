/**
 * @module `SessionError` and its one code table (`SESSION_ERROR_CODES`), for every sub-system of the package.
 */
import { CODEC_ERROR_CODES } from 'dsh-codec';

/**
 * Every code a `SessionError` carries, with when: SPEC §8's codes, plus the codec's codes passed
 * through when a stored log cannot be read. The code union is the keys of this table.
 */
export const SESSION_ERROR_CODES = {
  ...CODEC_ERROR_CODES,
  CORRUPT:
    'a stored log has no readable header or names another session, or its repair would drop more than the one unfinished final line, or a sealed segment is missing or does not match its digest; refused, the file left as it is',
  SESSION_NOT_FOUND: 'no session with that id (open, inspect, fork source, delete)',
  SESSION_EXISTS: 'create or fork with an id a live or stored session already has',
  INVALID_CUT: 'fork atSeq is not an existing integer seq of the source; nothing is created',
  INVALID_OBSERVATION: "fork from a value this store's observe() did not produce; nothing is created",
  SESSION_BUSY: 'another writer holds the session; holder names pid, host and since: fork it instead',
  INVALID_EVENT: 'an append (or a stored event) breaks a shape or relationship of the current format; nothing is appended',
  INVALID_SESSION_ID: 'an id outside [A-Za-z0-9_-]{1,128}',
  SESSION_CLOSED: 'append to a closed session',
  STORE_CLOSED: 'any call on a closed store',
  WRITE_FAILED: 'storage refused a write; the events stay pending and the next flush() retries',
  STORAGE_ERROR: 'any other storage failure (e.g. a permission error); the OS error is the cause',
  INVALID_FORK_REQUEST: 'a fork `forkRequest` whose key or digest is not 1-255 visible ASCII characters; nothing is created',
  INVALID_TITLE: 'a title holding control characters (C0, DEL, C1, line separators, bidi overrides); nothing is created or appended',
} as const;

/** A `SessionError`'s code: a key of `SESSION_ERROR_CODES`. */
export type SessionErrorCode = keyof typeof SESSION_ERROR_CODES;

/** Who holds a session's single-writer lease. */
export type LeaseHolder = {
  /** Process id of the holder. */
  pid: number;
  /** Host name the holder runs on. */
  host: string;
  /** When the lease was taken (epoch milliseconds). */
  since: number;
};

const MARK = Symbol.for('dsh.SessionError');

/**
 * The only error dsh-session throws. `code` is stable; a codec failure keeps the codec's code with
 * the `CodecError` as `cause`; `SESSION_BUSY` carries the `holder`. `SessionError.is()` works across copies.
 */
export class SessionError extends Error {
  override readonly name = 'SessionError';
  readonly code: SessionErrorCode;
  /** The session the error is about, when there is one. */
  readonly sessionId: string | undefined;
  /** The lease holder, for `SESSION_BUSY`. */
  readonly holder: LeaseHolder | undefined;
  readonly [MARK] = true;

  constructor(code: SessionErrorCode, message: string, options: { sessionId?: string; holder?: LeaseHolder; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.holder = options.holder;
  }

  static is(value: unknown): value is SessionError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}

/**
 * Whether `error` is a storage failure that may pass (`WRITE_FAILED`, `STORAGE_ERROR`: a full disk, too
 * many open files, an I/O error, an unreachable database): the events stay pending and a later write may
 * succeed. A lost lease (`SESSION_BUSY`), a closed session or store, or a corrupt log is not.
 */
export function isTransientStorageError(error: unknown): boolean {
  return SessionError.is(error) && (error.code === 'WRITE_FAILED' || error.code === 'STORAGE_ERROR');
}
