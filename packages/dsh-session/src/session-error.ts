import type { CodecErrorCode } from 'dsh-codec';

/** Codes of SPEC §8, plus the codec's codes passed through when a stored log cannot be read. */
export type SessionErrorCode =
  | 'SESSION_NOT_FOUND'
  | 'SESSION_EXISTS'
  | 'INVALID_CUT'
  | 'SESSION_BUSY'
  | 'INVALID_EVENT'
  | 'CORRUPT'
  | 'INVALID_SESSION_ID'
  | 'SESSION_CLOSED'
  | 'STORE_CLOSED'
  | 'WRITE_FAILED'
  | 'STORAGE_ERROR'
  | CodecErrorCode;

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

  constructor(
    code: SessionErrorCode,
    message: string,
    options: { sessionId?: string; holder?: LeaseHolder; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.sessionId = options.sessionId;
    this.holder = options.holder;
  }

  static is(value: unknown): value is SessionError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
