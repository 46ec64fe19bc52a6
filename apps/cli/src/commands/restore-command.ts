/**
 * @module restore-command
 * `dsh restore ID|NAME --at SEQ [--json]` (SPEC §23): the session's files set to the workspace at SEQ, undoable.
 */
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { restoreWorkspace, type WorkspaceRestore } from '../restore-workspace.js';
import { storeArguments } from '../store-arguments.js';
import { terminalLine } from '../terminal-text.js';
import { withHost } from '../with-host.js';
import { parseSeq } from '../parse-seq.js';

/** The lines a restore prints (also after `dsh fork --restore`): what changed, what was left, how to undo it. */
export function restoreLines(done: WorkspaceRestore, undo: string): string[] {
  const lines = [
    `dsh: restored ${done.cwd} to the workspace at seq ${String(done.atSeq)} (checkpoint at seq ${String(done.checkpointSeq)}): ${String(done.changed.length)} path(s) changed`,
  ];
  for (const entry of done.changed) lines.push(`  ${entry.change} ${entry.path}`);
  if (done.untracked.length > 0) lines.push(`dsh: left as they are (no checkpoint captured them): ${done.untracked.join(', ')}`);
  lines.push(`dsh: undo it with: ${undo}`);
  return lines.map((line) => terminalLine(line));
}

/** `dsh restore ID --at SEQ`: prints what changed and `dsh restore ID --at M` for the checkpoint taken first. */
export async function restoreCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  if (typeof values.at !== 'string') throw new CliError('USAGE', 'dsh restore needs --at SEQ: the event whose workspace to restore.');
  const atSeq = parseSeq('--at', values.at);
  const dataDir = resolveDataDir(context, values.data);
  const done = await withHost(context, values, (host, _where, store) => restoreWorkspace(host, store, dataDir, ref, atSeq));
  const undo = `dsh restore ${done.sessionId} --at ${String(done.undoSeq)}${storeArguments(context, values)}`;
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify({ ...done, undo })}\n`);
    return 0;
  }
  for (const line of restoreLines(done, undo)) context.stdout.write(`${line}\n`);
  return 0;
}
