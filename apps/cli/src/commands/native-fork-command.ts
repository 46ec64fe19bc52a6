/**
 * `dsh fork FILE --at REF` (SPEC §18): forks a Claude Code, Codex or pi session file in the tool's
 * own format, writing the child beside FILE where the tool's resume finds it. FILE is never changed.
 */
import { randomUUID } from 'node:crypto';
import { dirname, join, resolve } from 'node:path';
// The native fork's own entry: neither the import's linking nor dsh-codec's schemas load for it.
import { ImportError, nativeFileReader, nativeResumeCommand, type NativeFileReader, type TranscriptFormat } from 'dsh-import/native-fork';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { assertUnchanged, publishNewFile, uuidV7 } from '../native-files.js';
import { maxBytesOption, readInputBytesStamped } from '../read-input-file.js';
import type { OptionValues } from '../parse-command-line.js';
import { terminalBody, terminalLine } from '../terminal-text.js';
import { shellCommand } from '../shell-command.js';

const FORMATS = ['auto', 'claude-code', 'codex', 'pi'] as const;

/** The `--format` of a native command (auto by default). */
export function nativeFormatOption(values: OptionValues): 'auto' | TranscriptFormat {
  const format = typeof values.format === 'string' ? values.format : 'auto';
  if (!(FORMATS as readonly string[]).includes(format))
    throw new CliError('USAGE', `--format: expected one of ${FORMATS.join(', ')}, received '${format}'.`);
  return format as 'auto' | TranscriptFormat;
}

/** An ImportError as the CLI reports it, naming the file. */
export function asCliError(error: unknown, path: string): unknown {
  if (!ImportError.is(error)) return error;
  return new CliError(error.code, `${path}: ${error.message}`, {
    cause: error,
    ...(error.code === 'INVALID_CUT' ? { hint: 'list the entries with their REF and seq: `dsh show FILE --entries`' } : {}),
    ...(error.code === 'FILE_TOO_LARGE' && /memory/.test(error.message)
      ? { hint: 'allow the fork more memory with --max-memory N (bytes), or cut at an entry id (REF) instead of seq:N' }
      : {}),
  });
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** `--session-id UUID`: the child's id (the tools name their sessions by UUID), or undefined for a new one. */
function childIdOption(values: OptionValues): string | undefined {
  const value = values['session-id'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !UUID.test(value))
    throw new CliError('USAGE', `--session-id expects a lowercase UUID such as 0a1b2c3d-…, received '${String(value)}'.`);
  return value;
}

/** `--max-memory N`: the fork's memory bound in bytes, or undefined for the default (4× the file, at least 64 MiB). */
function maxMemoryOption(values: OptionValues): number | undefined {
  const value = values['max-memory'];
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || !Number.isSafeInteger(Number(value)) || Number(value) === 0)
    throw new CliError('USAGE', `--max-memory expects a positive number of bytes, received '${String(value)}'.`);
  return Number(value);
}

/** Runs the native fork of `path` and prints the child (text, or `--json`). */
export async function nativeForkCommand(context: CliContext, values: OptionValues, path: string): Promise<number> {
  const file = resolve(context.cwd, path);
  if (typeof values.at !== 'string' || values.at === '')
    throw new CliError('USAGE', `dsh fork FILE needs --at REF: the tool's entry id (Claude uuid, pi id, Codex ordinal) or seq:N.`);
  const dshOnly = ['name', 'idempotency-key', 'cwd', 'tools'].filter((option) => values[option] !== undefined);
  if (dshOnly.length > 0)
    throw new CliError('USAGE', `${dshOnly.map((option) => `--${option}`).join(', ')} apply to dsh sessions, not to a session FILE.`);
  const format = nativeFormatOption(values);
  const chosen = childIdOption(values);
  const maxMemoryBytes = maxMemoryOption(values);
  // Read where the fork's scanner reads it (no copy of the file's bytes), scanned while the rest is read.
  let reader: NativeFileReader | undefined;
  const read = await readInputBytesStamped(context, file, maxBytesOption(values['max-bytes']), {
    stable: true,
    allocate: (size) => (reader = nativeFileReader(size)).bytes,
    onRead: (_bytes, length) => reader?.onRead(length),
  });
  const now = Date.now();
  let fork;
  try {
    const sessionId = (detected: TranscriptFormat) => chosen ?? (detected === 'claude-code' ? randomUUID() : uuidV7(now));
    // A stable read is the reader's bytes, whole (a file that grew or shrank was refused).
    if (reader === undefined || read.bytes !== reader.bytes) throw new Error(`${file}: the bytes read are not the reader's`);
    fork = await reader.fork({
      format,
      at: values.at,
      sessionId,
      now,
      parentFile: file,
      strict: values.strict === true,
      ...(maxMemoryBytes === undefined ? {} : { maxMemoryBytes }),
    });
  } catch (error) {
    throw asCliError(error, file);
  }
  // A malformed line is skipped as the tools skip it (never copied into the child): each one named.
  for (const warning of fork.warnings) context.stderr.write(`dsh: warning: ${terminalLine(`${file}: ${warning}`)}\n`);
  if (values.worktree === true) {
    await assertUnchanged(file, read);
    return (await import('./native-worktree-fork.js')).nativeWorktreeFork(context, values, fork, file, now);
  }
  const child = join(dirname(file), fork.fileName);
  await assertUnchanged(file, read);
  await publishNewFile(child, fork.chunks);
  const resume = nativeResumeCommand(fork.format, fork.sessionId, child);
  // Codex lists only the threads its database records: the command that has Codex record this one.
  const index =
    fork.format === 'codex'
      ? await (await import('../codex-index-command.js')).codexIndexCommand(context, child, fork.sessionId)
      : undefined;
  if (values.json === true) {
    context.stdout.write(
      `${JSON.stringify({ session_id: fork.sessionId, file: child, format: fork.format, parent_session: fork.parentSessionId ?? null, cut: fork.cut, resume, ...(index === undefined ? {} : { index: index.argv }) })}\n`,
    );
    return 0;
  }
  context.stdout.write(`${terminalLine(fork.sessionId)}\n`);
  const closed =
    fork.closedCalls.length === 0 ? 'no call open' : `${String(fork.closedCalls.length)} open call(s) closed with dsh's forked result`;
  const where = fork.format === 'claude-code' ? " (from the session's working directory)" : '';
  context.stderr.write(
    terminalBody(
      `dsh: forked ${fork.format} session ${terminalLine(fork.parentSessionId ?? '?')} at ${terminalLine(values.at)} (seq ${String(fork.cut)}; ${String(fork.inheritedEntryCount)} entries copied; ${closed}) into ${terminalLine(child)}\n` +
        `  resume it with: ${terminalLine(shellCommand(resume))}${where}\n` +
        (index === undefined ? '' : `  list it in \`codex resume\` and --last: ${terminalLine(index.line)}\n`),
    ),
  );
  return 0;
}
