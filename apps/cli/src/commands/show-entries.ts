/**
 * @module show-entries
 * `dsh show FILE --entries [--json]` (SPEC §26 "Finding the entry to cut at"): every entry on the
 * main line of a Claude Code, Codex or pi session file (a path, or a tool's session id), with the
 * REF and the seq `dsh fork FILE --at` takes, the tool's entry type, a one-line summary and its calls.
 */
import { resolve } from 'node:path';
import { ImportError, listNativeEntries } from 'dsh-import';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { findNativeSessionFile } from '../native-session-files.js';
import { pathExists } from '../native-files.js';
import type { OptionValues } from '../parse-command-line.js';
import { maxBytesOption, readInputFile } from '../read-input-file.js';
import { shellCommand } from '../shell-command.js';
import { terminalLine } from '../terminal-text.js';
import { nativeFormatOption } from './native-fork-command.js';

/** Lists the entries of the session file `ref` names (a path, else a tool's session id). */
export async function showEntries(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  const path = resolve(context.cwd, ref);
  const file = (await pathExists(path)) ? path : (await findNativeSessionFile(context, ref))?.file;
  if (file === undefined)
    throw new CliError(
      'USAGE',
      `--entries lists a session file's entries: expected a path to a Claude Code, Codex or pi file, or such a session's id, received '${ref}'.`,
    );
  const text = await readInputFile(context, file, maxBytesOption(values['max-bytes']));
  let listed;
  try {
    listed = listNativeEntries(text, { format: nativeFormatOption(values), strict: values.strict === true });
  } catch (error) {
    if (ImportError.is(error)) throw new CliError(error.code, `${file}: ${error.message}`, { cause: error });
    throw error;
  }
  for (const warning of listed.warnings) context.stderr.write(`dsh: warning: ${terminalLine(`${file}: ${warning}`)}\n`);
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify({ file, format: listed.format, entries: listed.entries }, null, 2)}\n`);
    return 0;
  }
  const rows = listed.entries.map((entry) => ({
    ref: entry.ref ?? '-',
    seq: String(entry.seq),
    type: entry.type,
    text: `${entry.calls.length > 0 ? `[calls ${entry.calls.map((call) => `${call.name}#${call.id}`).join(', ')}] ` : ''}${entry.summary}`,
  }));
  const width = (key: 'ref' | 'seq' | 'type', title: string) => Math.max(title.length, ...rows.map((row) => row[key].length));
  const [refWidth, seqWidth, typeWidth] = [width('ref', 'REF'), width('seq', 'SEQ'), width('type', 'TYPE')];
  const line = (ref: string, seq: string, type: string, text: string) =>
    terminalLine(`${ref.padEnd(refWidth)}  ${seq.padStart(seqWidth)}  ${type.padEnd(typeWidth)}  ${text}`.trimEnd());
  const out = [line('REF', 'SEQ', 'TYPE', 'SUMMARY'), ...rows.map((row) => line(row.ref, row.seq, row.type, row.text))];
  context.stdout.write(`${out.join('\n')}\n`);
  context.stderr.write(
    `dsh: ${listed.format} file ${terminalLine(file)}: cut at an entry with ${terminalLine(shellCommand(['dsh', 'fork', file, '--at', 'REF']))} (or --at seq:SEQ)\n`,
  );
  return 0;
}
