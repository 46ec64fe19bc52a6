/**
 * `dsh repair FILE` (SPEC §18): appends dsh's interrupted closers to a Claude Code, Codex or pi
 * session file whose last step has calls without results — atomically, keeping `FILE.bak`.
 */
import { resolve } from 'node:path';
import { repairNativeTranscript } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { assertUnchanged, replaceKeepingBackup } from '../native-files.js';
import { maxBytesOption, readInputFileStamped } from '../read-input-file.js';
import type { OptionValues } from '../parse-command-line.js';
import { asCliError, nativeFormatOption } from './native-fork-command.js';

/** Repairs FILE in place, or says there is nothing to repair (exit 0 either way). */
export async function repairCommand(context: CliContext, values: OptionValues, path: string): Promise<number> {
  const file = resolve(context.cwd, path);
  const format = nativeFormatOption(values);
  const read = await readInputFileStamped(context, file, maxBytesOption(values['max-bytes']), { stable: true });
  let repair;
  try {
    repair = repairNativeTranscript(read.text, { format, now: Date.now() });
  } catch (error) {
    throw asCliError(error, file);
  }
  if (repair.appended === '') {
    context.stderr.write(`dsh: nothing to repair: ${file} (${repair.format}) has no call without a result at its end; left untouched\n`);
    return 0;
  }
  await assertUnchanged(file, read);
  await replaceKeepingBackup(file, read.text, read.text + repair.appended);
  const ids = repair.closedCalls.map((call) => call.callId).join(', ');
  context.stderr.write(
    `dsh: repaired ${file} (${repair.format}): ${String(repair.closedCalls.length)} call(s) closed with dsh's interrupted result (${ids}); the original is ${file}.bak\n`,
  );
  return 0;
}
