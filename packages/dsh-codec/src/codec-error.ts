import type { ValidationIssue } from './types.js';

export type CodecErrorCode =
  | 'MALFORMED_JSON'
  | 'INVALID_HEADER'
  | 'INVALID_EVENT'
  | 'INVALID_RELATIONSHIP'
  | 'UNSUPPORTED_VERSION'
  | 'CORRUPT';

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
