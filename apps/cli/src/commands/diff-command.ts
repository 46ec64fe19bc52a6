/**
 * @module diff-command
 * `dsh diff ID|NAME --at N [--to M] [--json]` (SPEC §23): the files that differ between the workspace at
 * N and at M, or the files now.
 */
import { join } from 'node:path';
import { openWorkspaceStore, WorkspaceError } from 'dsh-workspace';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { checkpointAtOrRefuse, cwdAt } from '../restore-workspace.js';
import { terminalLine } from '../terminal-text.js';
import { withHost } from '../with-host.js';
import { parseSeq } from '../parse-seq.js';

/** `dsh diff ID --at N [--to M]`: one line per path (`added|deleted|modified|type-changed PATH`); `--json` the whole comparison. */
export async function diffCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  if (typeof values.at !== 'string') throw new CliError('USAGE', 'dsh diff needs --at SEQ: the event whose workspace to compare.');
  const atSeq = parseSeq('--at', values.at);
  const toSeq = typeof values.to === 'string' ? parseSeq('--to', values.to) : undefined;
  const dataDir = resolveDataDir(context, values.data);
  const compared = await withHost(context, values, async (host) => {
    const sessionId = await host.resolve(ref);
    const observation = await host.observe(sessionId);
    const from = checkpointAtOrRefuse(observation.events, atSeq, sessionId);
    const workspaces = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
    try {
      await workspaces.require(from);
      if (toSeq !== undefined) {
        const to = checkpointAtOrRefuse(observation.events, toSeq, sessionId);
        await workspaces.require(to);
        return { sessionId, from: { seq: from.seq }, to: { seq: to.seq }, ...(await workspaces.diff(from.tree, to.tree)) };
      }
      const cwd = cwdAt(observation.events, observation.events.at(-1)?.seq ?? -1, observation.header.cwd);
      if (cwd === undefined) throw new CliError('NO_WORKSPACE', `${sessionId} records no working directory to compare with.`);
      return { sessionId, from: { seq: from.seq }, to: { cwd }, ...(await workspaces.diff(from.tree, { cwd })) };
    } catch (error) {
      if (WorkspaceError.is(error))
        throw new CliError(error.code, error.message, { cause: error, ...(error.hint === undefined ? {} : { hint: error.hint }) });
      throw error;
    }
  });
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify(compared)}\n`);
    return 0;
  }
  for (const entry of compared.changes) context.stdout.write(`${terminalLine(`${entry.change} ${entry.path}`)}\n`);
  const target = 'seq' in compared.to ? `the checkpoint at seq ${String(compared.to.seq)}` : `the files now in ${compared.to.cwd}`;
  context.stderr.write(
    `${terminalLine(`dsh: ${String(compared.changes.length)} path(s) differ from the checkpoint at seq ${String(compared.from.seq)} to ${target}`)}\n`,
  );
  for (const entry of compared.skipped ?? [])
    context.stderr.write(`${terminalLine(`dsh: not compared: ${entry.path} (${entry.reason})`)}\n`);
  return 0;
}
