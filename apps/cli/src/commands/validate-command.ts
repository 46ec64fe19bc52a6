/**
 * @module validate-command
 * `dsh validate FILE`, and the bounded read and decode of a log file other commands share.
 */
import { basename } from 'node:path';
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl } from 'dsh-codec';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import { formatBytes, progressLine } from '../progress-line.js';
import { readInputFile } from '../read-input-file.js';
import { terminalLine } from '../terminal-text.js';

/** The session id a headerless (V0) log takes from its file name. */
export function sessionIdFromFileName(file: string): string {
  const stem = basename(file).replace(/\.jsonl$/i, '');
  const id = stem.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 128);
  return id === '' ? 'session' : id;
}

/**
 * Reads (bounded: `NOT_A_FILE`, `FILE_TOO_LARGE` before reading, see `readInputFile`) and decodes a
 * log of any version; a codec failure becomes a `CliError` with its code and line.
 */
export async function decodeLogFile(context: CliContext, file: string, maxBytes?: number): Promise<ReturnType<typeof decodeJsonl>> {
  const text = await readInputFile(context, file, maxBytes);
  return decodeLogText(file, text, context);
}

/** Decodes the text of `file` (any version), with progress on a terminal's stderr when `context` is given; failures as in `decodeLogFile`. */
export function decodeLogText(file: string, text: string, context?: CliContext): ReturnType<typeof decodeJsonl> {
  const progress = context === undefined ? undefined : progressLine(context);
  const size = progress === undefined ? '' : formatBytes(Buffer.byteLength(text));
  let decoded: ReturnType<typeof decodeJsonl>;
  try {
    decoded = decodeJsonl(text, {
      sessionId: sessionIdFromFileName(file),
      ...(progress === undefined
        ? {}
        : {
            onProgress: ({ lines, phase }) => {
              progress.update(
                phase === 'parsing'
                  ? `checking ${file} (${size}): ${String(lines)} lines`
                  : `checking ${file}: migrating ${String(lines)} lines to the current format`,
                phase === 'migrating',
              );
            },
          }),
    });
  } catch (error) {
    if (!CodecError.is(error)) throw error;
    const where = error.line === undefined ? '' : ` at line ${error.line}`;
    const issues = error.issues
      .slice(0, 10)
      .map((issue) => `\n  - ${issue.path.join('.')}: ${issue.message}`)
      .join('');
    const more = error.issues.length > 10 ? `\n  … and ${error.issues.length - 10} more` : '';
    throw new CliError(error.code, `${file}${where}: ${error.message}${issues}${more}`, {
      cause: error,
      ...(error.code === 'UNSUPPORTED_VERSION' ? { hint: 'upgrade dsh to read this log' } : {}),
    });
  } finally {
    progress?.done();
  }
  if (decoded.tornTail !== undefined) {
    throw new CliError(
      'TORN_TAIL',
      `${file} at line ${decoded.tornTail.line}: the last line is incomplete (byte offset ${decoded.tornTail.offset}), as a crash mid-write leaves it; the ${decoded.events.length} events before it are valid.`,
      { hint: 'opening the session with a dsh store drops the torn line and repairs the open tail' },
    );
  }
  return decoded;
}

/** `dsh validate FILE [--max-bytes N]`: exit 0 for a valid log of any version, 1 with the code and line otherwise. */
export async function validateCommand(context: CliContext, file: string, maxBytes?: number): Promise<number> {
  const decoded = await decodeLogFile(context, file, maxBytes);
  const upgrade =
    decoded.sourceVersion < CURRENT_FORMAT_VERSION ? `; \`dsh migrate ${file} --write\` upgrades it to V${CURRENT_FORMAT_VERSION}` : '';
  context.stdout.write(
    `${file}: valid V${decoded.sourceVersion} log of session ${terminalLine(decoded.header.id)}, ${decoded.events.length} events${upgrade}\n`,
  );
  return 0;
}
