/**
 * @module codec-error
 * The one error dsh-codec throws, `CodecError`, and the table of its codes (`CODEC_ERROR_CODES`)
 * that the code union, the README and the host's HTTP statuses are checked against.
 */
import type { ValidationIssue } from './types.js';

/**
 * Every code a `CodecError` carries, with when it is thrown: the one list the code union, the
 * README table and the host's HTTP statuses are checked against.
 */
export const CODEC_ERROR_CODES = {
  MALFORMED_JSON: 'a line other than the last is not JSON (the log is refused with its line)',
  INVALID_HEADER: 'missing or invalid header, inconsistent lineage, V0 without sessionId',
  INVALID_EVENT: 'invalid envelope or payload, lossy JSON, unknown type without ignorable: true',
  INVALID_RELATIONSHIP: 'turns, steps, calls, results or the inherited marker out of order',
  UNSUPPORTED_VERSION: 'written by a newer dsh: upgrade (or a version dsh cannot write)',
  UNREPRESENTABLE: 'a downgrade refused: the log holds data the older version cannot hold (named by seq), never dropped',
  CORRUPT: 'no readable header (torn header line), or not a log at all',
} as const;

/** A `CodecError`'s code: a key of `CODEC_ERROR_CODES`. */
export type CodecErrorCode = keyof typeof CODEC_ERROR_CODES;

const MARK = Symbol.for('dsh.CodecError');

/**
 * The only error dsh-codec throws. `code` is stable; `line` (1-based) and `issues` say where.
 * `CodecError.is()` recognises instances from another installed copy of the package.
 */
export class CodecError extends Error {
  override readonly name = 'CodecError';
  readonly code: CodecErrorCode;
  readonly line: number | undefined;
  readonly issues: readonly ValidationIssue[];
  readonly [MARK] = true;

  constructor(
    code: CodecErrorCode,
    message: string,
    options: { line?: number; issues?: readonly ValidationIssue[]; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.line = options.line;
    this.issues = options.issues ?? [];
  }

  static is(value: unknown): value is CodecError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
