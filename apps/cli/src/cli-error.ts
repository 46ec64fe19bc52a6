/**
 * A failure the CLI reports to a person: `code` (a host/codec code, or `USAGE`), a message, and a
 * hint saying what to do next. Usage errors exit 2, everything else 1.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  readonly code: string;
  readonly hint: string | undefined;

  constructor(code: string, message: string, options: { hint?: string; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.code = code;
    this.hint = options.hint;
  }

  get exitCode(): number {
    return this.code === 'USAGE' ? 2 : 1;
  }
}
