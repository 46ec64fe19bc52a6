/** @module `HostError`: what every host method throws; `HostError.wrap` carries a coded store, codec, agent or import error across unchanged. */
import { CodecError } from 'dsh-codec';
import { AgentError } from 'dsh-agent';
// dsh-import's error entry: its main one loads every reader.
import { ImportError } from 'dsh-import/error';
import { SessionError } from 'dsh-session';
import { isHostErrorCode, type HostErrorCode } from './host-error-codes.js';

export type { HostErrorCode } from './host-error-codes.js';

const MARK = Symbol.for('dsh.HostError');

/** Who holds a session's lease: process id, host name, since when (epoch ms). */
export type LeaseHolderInfo = { pid: number; host: string; since: number };

/** Extra facts an error carries for callers that act on it (ids of an ambiguous name, a bad field's path). */
export type HostErrorDetails = {
  /** `NAME_AMBIGUOUS`: every session id the name matched. */
  candidates?: string[];
  /** `BAD_REQUEST`: each invalid field with its path. */
  issues?: { path: (string | number)[]; message: string }[];
  /** `SESSION_BUSY`: the process holding the session's single-writer lease, when known. */
  holder?: LeaseHolderInfo;
};

/**
 * The only error dsh-host throws. `code` is a row of `HOST_ERROR_CODES`, which gives its HTTP status;
 * store, codec and agent errors are wrapped with the same code and kept as `cause`.
 * `HostError.is()` recognises instances from another installed copy of the package.
 */
export class HostError extends Error {
  override readonly name = 'HostError';
  readonly code: HostErrorCode;
  readonly details: HostErrorDetails;
  readonly [MARK] = true;

  constructor(code: HostErrorCode, message: string, options: { details?: HostErrorDetails; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.details = options.details ?? {};
  }

  static is(value: unknown): value is HostError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }

  /**
   * Wraps a coded store or codec error as a `HostError` with the same code and message; returns
   * `undefined` for anything else (an unknown failure the caller must not dress up as a known one).
   */
  static wrap(error: unknown): HostError | undefined {
    if (HostError.is(error)) return error;
    if (CodecError.is(error)) return new HostError(error.code, error.message, { cause: error });
    if (error instanceof Error && hasKnownCode(error)) {
      const details: HostErrorDetails = {};
      const holder = (error as { holder?: Partial<LeaseHolderInfo> }).holder;
      if (typeof holder?.pid === 'number' && typeof holder.host === 'string' && typeof holder.since === 'number') {
        details.holder = { pid: holder.pid, host: holder.host, since: holder.since };
      }
      return new HostError(error.code, error.message, { cause: error, details });
    }
    return undefined;
  }
}

/** A store, agent or import error (recognised by its class's own `is`, across copies of the package) whose code is in the host's table. */
function hasKnownCode(error: Error): error is Error & { code: HostErrorCode } {
  return (SessionError.is(error) || AgentError.is(error) || ImportError.is(error)) && isHostErrorCode(error.code);
}
