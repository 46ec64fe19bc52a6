/**
 * @module interactive-loop
 * Interactive mode's read loop: one line at a time (lines typed during a turn wait for it, then are
 * shown as typed and run), `/branch` typed during a turn at once, Ctrl-C cancelling a running turn
 * and a second Ctrl-C exiting (a line typed in between disarms it), every failure printed in place.
 */
import { parseSlashCommand, type SlashInput } from 'dsh-host/commands';
import { handleLine } from './handle-line.js';
import { INTERACTIVE_COMMANDS } from './interactive-help.js';
import type { InteractiveSession } from './interactive-session.js';
import { runSlashInput } from './run-slash-command.js';
import { terminalBody } from '../terminal-text.js';

/** Whether a line is `/branch` (well-formed or not): during a turn it acts at once. */
function isBranch(input: SlashInput): boolean {
  if (input.kind === 'message') return false;
  return (input.kind === 'command' ? input.command.name : input.command) === 'branch';
}

/** Prints an error as `CODE: message` (or the message alone). */
function printFailure(session: InteractiveSession, error: unknown): void {
  const code = (error as { code?: unknown }).code;
  session.out(
    session.paint.error(
      terminalBody(`${typeof code === 'string' ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`),
    ),
  );
}

/** Reads and runs lines until the terminal closes, then waits for the line being run. */
export async function runInteractiveLoop(session: InteractiveSession): Promise<void> {
  const { rl } = session.terminal;
  const { paint, out } = session;
  rl.on('SIGINT', () => {
    if (session.armed) {
      rl.close();
      return;
    }
    session.armed = true;
    if (session.running) {
      out(paint.dim('^C cancelling the turn… (Ctrl-C again exits)'));
      void session.host.cancel(session.current);
    } else {
      out(paint.dim('^C (Ctrl-C again, Ctrl-D or /exit quits)'));
      rl.prompt();
    }
  });
  rl.setPrompt('> ');
  rl.prompt();
  const failed = (error: unknown) => {
    printFailure(session, error);
  };
  let queue = Promise.resolve();
  rl.on('line', (line) => {
    const typedDuringTurn = session.running;
    const input = parseSlashCommand(line, INTERACTIVE_COMMANDS);
    if (typedDuringTurn && isBranch(input)) {
      // /branch acts at once, as the demo's does: the fork is cut after the latest closed turn.
      void runSlashInput(session, input).catch(failed);
      return;
    }
    queue = queue.then(async () => {
      // The prompt is already on screen: the held line completes it, as if typed now.
      if (typedDuringTurn) out(`${line}${paint.dim('  (typed during the turn)')}`);
      try {
        await handleLine(session, line);
      } catch (error) {
        failed(error);
      }
      // `true` keeps what was typed since (held back during a turn) on the new prompt line.
      if (!session.terminal.isClosed()) rl.prompt(true);
    });
  });
  await session.terminal.closed;
  await queue;
}
