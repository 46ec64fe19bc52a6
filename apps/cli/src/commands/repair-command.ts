/**
 * `dsh repair FILE` (SPEC §18, §27): appends dsh's interrupted closers to a Claude Code, Codex or pi
 * session file whose last step has calls without results — in place, with `O_APPEND`, never
 * replacing FILE's inode (a tool still writing to it loses no line), the original kept as
 * `FILE.bak` (or `FILE.bak.1`, …). A file another process has open for writing is refused `FILE_IN_USE`.
 */
import { realpath, unlink } from 'node:fs/promises';
import { resolve } from 'node:path';
import { Buffer } from 'node:buffer';
import { repairNativeTranscript } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { appendInPlace, writeBackup } from '../append-in-place.js';
import { assertUnchanged } from '../native-files.js';
import { processesHolding } from '../processes-holding.js';
import { maxBytesOption, readInputBytesStamped } from '../read-input-file.js';
import { terminalLine } from '../terminal-text.js';
import type { OptionValues } from '../parse-command-line.js';
import { asCliError, nativeFormatOption } from './native-fork-command.js';

/** The file `path` names: a symlink's target (repaired there, its backup beside it), or `path` itself if it does not exist. */
async function targetOf(path: string): Promise<string> {
  try {
    return await realpath(path);
  } catch {
    // The read reports it (FILE_NOT_FOUND, READ_FAILED).
    return path;
  }
}

/** `FILE_IN_USE` when another process has `file` open for writing (a tool still running that session). */
function refuseIfInUse(file: string): void {
  const holders = processesHolding(file);
  if (holders.length === 0) return;
  const named = holders.map((holder) => `${holder.command} (pid ${String(holder.pid)})`).join(', ');
  throw new CliError('FILE_IN_USE', `${file} is open in ${named}: the tool may still be writing that session. Nothing was written.`, {
    hint: 'let the tool finish (or stop it), then run dsh repair again',
  });
}

/** Repairs FILE in place, or says there is nothing to repair (exit 0 either way). */
export async function repairCommand(context: CliContext, values: OptionValues, path: string): Promise<number> {
  const named = resolve(context.cwd, path);
  const file = await targetOf(named);
  const format = nativeFormatOption(values);
  const read = await readInputBytesStamped(context, file, maxBytesOption(values['max-bytes']), { stable: true });
  const bytes = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
  let repair;
  try {
    repair = repairNativeTranscript(bytes.toString('utf8'), { format, now: Date.now(), strict: values.strict === true });
  } catch (error) {
    throw asCliError(error, file);
  }
  // A malformed line is skipped as the tools skip it and left where it is: each one named.
  for (const warning of repair.warnings) context.stderr.write(`dsh: warning: ${terminalLine(`${file}: ${warning}`)}\n`);
  if (repair.appended === '') {
    context.stderr.write(`dsh: nothing to repair: ${file} (${repair.format}) has no call without a result at its end; left untouched\n`);
    return 0;
  }
  refuseIfInUse(file);
  await assertUnchanged(file, read);
  // The torn line is what follows the last newline, counted in the file's bytes (whatever they decode to).
  const torn = repair.torn === '' ? new Uint8Array(0) : bytes.subarray(bytes.lastIndexOf(10) + 1);
  const backup = await writeBackup(file, bytes, read.mode & 0o7777);
  try {
    await appendInPlace(file, read.stamp, Buffer.from(repair.appended, 'utf8'), torn);
  } catch (error) {
    await unlink(backup).catch(() => undefined);
    throw error;
  }
  const ids = repair.closedCalls.map((call) => call.callId).join(', ');
  const through = file === named ? '' : ` (through the link ${named})`;
  const moved = torn.length === 0 ? '' : `; its torn last line (${String(torn.length)} bytes) was moved out`;
  context.stderr.write(
    `dsh: repaired ${file}${through} (${repair.format}): ${String(repair.closedCalls.length)} call(s) closed with dsh's interrupted result (${ids})${moved}; the original is ${backup}\n`,
  );
  return 0;
}
