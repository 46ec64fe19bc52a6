/**
 * @module run-slash-command
 * What each slash command does in interactive mode, once `dsh-host/commands` has parsed it: fork and
 * switch (`/branch`, `/fork`, with `dsh fork`'s options), `/rename`, `/resume` (the picker without a
 * ref), `/compact`, `/tree`, `/events`, `/help` and `/exit`. A refusal of the grammar is a `USAGE` error.
 */
import type { SlashCommand, SlashInput } from 'dsh-host/commands';
import { resolveDataDir } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { forkWithOptions, slashForkRequest, type SlashForkCommand } from '../fork-with-options.js';
import { forkWorkspaceLines } from '../fork-worktree-at-cut.js';
import { INTERACTIVE_HELP } from './interactive-help.js';
import type { InteractiveSession } from './interactive-session.js';
import { pickerEntries, pickerLines } from './resume-picker.js';
import { eventListing, markedTree, showSession } from './session-lines.js';
import { terminalBody, terminalLine } from '../terminal-text.js';

/** `/branch` and `/fork`: fork the current session and switch to the child (even during a turn). */
async function forkAndSwitch(session: InteractiveSession, command: SlashForkCommand): Promise<void> {
  const { context, values, host, paint, out } = session;
  const request = slashForkRequest(command, context.cwd);
  const {
    result: forked,
    warning,
    workspace,
  } = await forkWithOptions(host, resolveDataDir(context, values.data), session.current, request);
  session.printer.endLine();
  if (warning !== undefined) out(paint.error(terminalBody(warning.trimEnd())));
  for (const line of workspace === undefined ? [] : forkWorkspaceLines(workspace))
    out(line.startsWith('dsh: warning') ? paint.error(terminalLine(line)) : paint.dim(terminalLine(line)));
  out(
    paint.dim(
      `forked ${terminalLine(forked.parentSession)} at seq ${String(forked.forkCut)} (${String(forked.inheritedEventCount)} events inherited)`,
    ),
  );
  if (session.running)
    out(paint.dim(terminalLine(`the running turn goes on in ${forked.parentSession} (/resume ${forked.parentSession} to return)`)));
  session.current = forked.sessionId;
  await host.open(session.current);
  // The session left is released (once its running turn ends) so another terminal can resume it (SPEC §25).
  const left = forked.parentSession;
  const releaseLeft = () => (session.current === left ? Promise.resolve() : host.release(left));
  if (session.running)
    void host
      .idle(left)
      .then(releaseLeft)
      .catch(() => undefined);
  else await releaseLeft();
  await showSession(session, command.name === 'fork' ? 'now in fork' : 'now in branch');
  // Lines held back during the parent's turn now run in the branch.
  session.switched();
}

/** `/resume REF` switches; `/resume` alone lists the picker, whose number the next line may type. */
async function resume(session: InteractiveSession, ref: string | undefined): Promise<void> {
  const { host, paint, out } = session;
  if (ref === undefined) {
    const entries = await pickerEntries(host, await host.list());
    if (entries.length === 0) throw new Error('/resume found no sessions to pick from.');
    out(pickerLines(entries, session.current).join('\n'));
    out(paint.dim('type a number to resume that session (anything else cancels)'));
    session.picking = entries;
    return;
  }
  const next = await host.resolve(ref);
  await host.open(next);
  const previous = session.current;
  session.current = next;
  if (previous !== next) await host.release(previous);
  await showSession(session, 'resumed');
}

/** Runs one parsed command on the current session. */
export async function runSlashCommand(session: InteractiveSession, command: SlashCommand): Promise<void> {
  const { host, paint, out } = session;
  switch (command.name) {
    case 'help':
      out(INTERACTIVE_HELP);
      return;
    case 'exit':
      session.terminal.rl.close();
      return;
    case 'branch':
    case 'fork':
      await forkAndSwitch(session, command);
      return;
    case 'rename':
      await host.rename(session.current, command.title);
      out(paint.dim(terminalLine(`renamed ${session.current} to "${command.title}"`)));
      return;
    case 'resume':
      await resume(session, command.ref);
      return;
    case 'compact':
      await host.compact(session.current);
      out(paint.dim('compacted: the model now sees a summary; every event stays in the log'));
      return;
    case 'tree':
      out(markedTree(await host.list(), session.current));
      return;
    case 'events':
      out(eventListing((await host.observe(session.current)).events, paint));
      return;
  }
}

/** Runs a parsed command, or throws the grammar's refusal as a `USAGE` error; a message is not its job. */
export async function runSlashInput(session: InteractiveSession, input: SlashInput): Promise<void> {
  if (input.kind === 'invalid') throw new CliError('USAGE', input.message);
  if (input.kind === 'command') await runSlashCommand(session, input.command);
}
