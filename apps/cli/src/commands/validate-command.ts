import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { CodecError, CURRENT_FORMAT_VERSION, decodeJsonl } from 'dsh-codec';
import { CliError } from '../cli-error.js';
import type { CliContext } from '../cli-context.js';

/** The session id a headerless (V0) log takes from its file name. */
export function sessionIdFromFileName(file: string): string {
  const stem = basename(file).replace(/\.jsonl$/i, '');
  const id = stem.replace(/[^A-Za-z0-9_-]/g, '-').slice(0, 128);
  return id === '' ? 'session' : id;
}

/** Reads and decodes a log of any version; a codec failure becomes a `CliError` with its code and line. */
export async function decodeLogFile(file: string): Promise<ReturnType<typeof decodeJsonl>> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(code === 'ENOENT' ? 'FILE_NOT_FOUND' : 'READ_FAILED', `Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  return decodeLogText(file, text);
}

/** Decodes the text of `file` (any version); failures as in `decodeLogFile`. */
export function decodeLogText(file: string, text: string): ReturnType<typeof decodeJsonl> {
  let decoded: ReturnType<typeof decodeJsonl>;
  try {
    decoded = decodeJsonl(text, { sessionId: sessionIdFromFileName(file) });
  } catch (error) {
    if (!CodecError.is(error)) throw error;
    const where = error.line === undefined ? '' : ` at line ${error.line}`;
    const issues = error.issues.slice(0, 10).map((issue) => `\n  - ${issue.path.join('.')}: ${issue.message}`).join('');
    const more = error.issues.length > 10 ? `\n  … and ${error.issues.length - 10} more` : '';
    throw new CliError(error.code, `${file}${where}: ${error.message}${issues}${more}`, {
      cause: error,
      ...(error.code === 'UNSUPPORTED_VERSION' ? { hint: 'upgrade dsh to read this log' } : {}),
    });
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

/** `dsh validate FILE`: exit 0 for a valid log of any version, 1 with the code and line otherwise. */
export async function validateCommand(context: CliContext, file: string): Promise<number> {
  const decoded = await decodeLogFile(file);
  const upgrade = decoded.sourceVersion < CURRENT_FORMAT_VERSION ? `; \`dsh migrate ${file} --write\` upgrades it to V${CURRENT_FORMAT_VERSION}` : '';
  context.stdout.write(
    `${file}: valid V${decoded.sourceVersion} log of session ${decoded.header.id}, ${decoded.events.length} events${upgrade}\n`,
  );
  return 0;
}
