/**
 * @module validate-command
 * `dsh validate FILE`, and the bounded read and decode of a log file other commands share.
 */
import { basename } from 'node:path';
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl } from 'dsh-codec';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';
import { formatBytes, progressLine } from '../progress-line.js';
import { DEFAULT_MAX_INPUT_BYTES, readInputFile, tooLarge } from '../read-input-file.js';
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
  return decodeLogText(file, await selfContainedLog(file, text, maxBytes), context);
}

/** Where a log's header line names sealed segments: only a JSONL store's V7 manifest has this key there. */
const SEGMENTS_KEY = '"segments":';

/**
 * The self-contained log `text` (the bytes of `file`) stands for: a JSONL store's manifest is read with
 * the segments beside it, through dsh-host (`materializeLogFile`: each checked by digest, `CORRUPT`
 * naming one that is missing or differs), bounded by `maxBytes` as a file is; any other log as it is.
 */
export async function selfContainedLog(file: string, text: string, maxBytes: number = DEFAULT_MAX_INPUT_BYTES): Promise<string> {
  const headerEnd = text.indexOf('\n');
  const key = text.indexOf(SEGMENTS_KEY);
  if (key === -1 || (headerEnd !== -1 && key > headerEnd)) return text;
  // Loaded only for a manifest: the other logs are read with dsh-codec alone.
  const { materializeLogFile } = await import('dsh-host/core');
  const bytes = Buffer.from(text, 'utf8');
  const whole = await materializeLogFile(file, bytes, {
    maxBytes,
    onTooLarge: (size) =>
      tooLarge(file, maxBytes, `a manifest naming segments that make a log of ${String(size)} bytes (${formatBytes(size)})`),
  });
  return whole === bytes ? text : whole.toString('utf8');
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
