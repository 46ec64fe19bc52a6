/**
 * @module show-command
 * `dsh show ID|NAME`: a session's header and every event with its seq; `dsh show FILE --entries`:
 * a tool's session file's entries with the REF and seq `dsh fork FILE --at` takes (`show-entries.ts`).
 */
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import type { CliContext } from '../cli-context.js';
import { describeEvent } from '../describe-event.js';
import type { OptionValues } from '../parse-command-line.js';
import { observeSessionOrFile } from '../observe-session-or-file.js';
import { shellQuote } from '../store-arguments.js';
import { terminalLine } from '../terminal-text.js';

/** `dsh show ID|NAME [--json]`: the header, then each event as `seq type summary` (a tool's session file by its id too). */
export async function showCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  if (values.entries === true) return (await import('./show-entries.js')).showEntries(context, values, ref);
  const { observed, native } = await observeSessionOrFile(context, values, ref);
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify(observed, null, 2)}\n`);
    return 0;
  }
  const { header } = observed;
  const lines = [
    `session ${header.id}${observed.title === undefined ? '' : `  "${observed.title}"`}`,
    `created ${new Date(header.createdAt).toISOString()}${observed.cwd === undefined ? '' : `  cwd ${observed.cwd}`}`,
  ];
  if (native !== undefined)
    lines.push(
      `not stored in dsh: the ${native.tool} session file ${native.file}, read as \`dsh import\` reads it (fork it at a seq with \`dsh fork ${header.id} --at seq:N\`)`,
    );
  if (header.parentSession !== undefined) {
    lines.push(`forked from ${header.parentSession} at seq ${String(header.forkCut)} (inherits seqs 0..${header.inheritedEventCount - 1})`);
  }
  if (observed.formatVersion < CURRENT_FORMAT_VERSION) {
    lines.push(`stored as V${observed.formatVersion}; read as V${CURRENT_FORMAT_VERSION}, and the next write upgrades the file`);
  }
  if (native !== undefined && native.openCalls.length > 0) {
    const ids = native.openCalls.map((call) => call.callId).join(', ');
    lines.push(
      `needs repair: its last step has ${String(native.openCalls.length)} call(s) without a result (${ids}); \`dsh repair ${shellQuote(native.file)}\` closes them with dsh's interrupted result`,
    );
  } else if (observed.needsRepair) lines.push('needs repair: its last turn was interrupted; the next resume closes it');
  if (observed.pendingInputs.length > 0) lines.push(`pending input: ${observed.pendingInputs.map((event) => event.seq).join(', ')}`);
  lines.push('');
  const width = String(Math.max(0, observed.events.length - 1)).length;
  const typeWidth = Math.max(0, ...observed.events.map((event) => event.type.length));
  for (const event of observed.events) {
    lines.push(`${String(event.seq).padStart(width)}  ${event.type.padEnd(typeWidth)}  ${describeEvent(event)}`.trimEnd());
  }
  // Titles, cwd, ids and event text come from the session or a foreign file: each line shown, never obeyed.
  context.stdout.write(`${lines.map(terminalLine).join('\n')}\n`);
  return 0;
}
