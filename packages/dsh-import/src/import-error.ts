/**
 * The one error class of dsh-import. Codes come from one table; `line` (1-based) says where.
 */

/** Every refusal of `importTranscript`, with what it means. The code union is this table's keys. */
export const IMPORT_ERROR_CODES = {
  UNKNOWN_FORMAT: 'the text is none of the formats dsh-import reads (Claude Code, Codex, pi)',
  FORMAT_MISMATCH: 'the text does not fit the format asked for with `format`',
  MALFORMED_LINE: 'a line before the last one is not JSON (strict), or no line is',
  EMPTY_TRANSCRIPT: 'the text holds no line to import',
  INVALID_OPTION: 'an option has a value outside its documented range',
  INVALID_CUT: "a native fork's `at` names no entry of the file (or a seq the file cannot be cut at); the message names the valid ones",
  FILE_TOO_LARGE:
    "a native fork of the file would need more memory than its bound (4× the file's size, at least 64 MiB, or `maxMemoryBytes`); the message names both",
} as const;

/** A code of `IMPORT_ERROR_CODES`. */
export type ImportErrorCode = keyof typeof IMPORT_ERROR_CODES;

const MARK = Symbol.for('dsh.ImportError');

/**
 * The only error dsh-import throws: `code` is stable, `line` names the source line when one is to blame.
 * `ImportError.is()` recognises instances from another installed copy of the package.
 */
export class ImportError extends Error {
  override readonly name = 'ImportError';
  readonly code: ImportErrorCode;
  readonly line: number | undefined;
  readonly [MARK] = true;

  constructor(code: ImportErrorCode, message: string, options: { line?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.line = options.line;
  }

  static is(value: unknown): value is ImportError {
    return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[MARK] === true;
  }
}
