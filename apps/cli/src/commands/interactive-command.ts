/**
 * @module interactive-command
 * Interactive mode (`dsh` on a terminal, or `dsh --resume REF` / `--continue`): a prompt that runs a
 * turn per line and shows its text, tool calls and results with their seqs, plus slash commands to
 * branch, fork at a seq, rename, resume, compact and inspect. Assistant text is printed as it streams.
 * This module only wires the pieces of `interactive/` together: where to start, the terminal, the loop.
 */
import { resolve } from 'node:path';
import type { SessionEvent } from 'dsh-codec';
import type { CliContext } from '../cli-context.js';
import { paintFor } from '../interactive/interactive-output.js';
import { runInteractiveLoop } from '../interactive/interactive-loop.js';
import { runSlashCommand } from '../interactive/run-slash-command.js';
import type { InteractiveSession } from '../interactive/interactive-session.js';
import { showSession } from '../interactive/session-lines.js';
import { startSession } from '../interactive/start-session.js';
import { openTerminalInput } from '../interactive/terminal-input.js';
import { terminalPrinter } from '../interactive/terminal-printer.js';
import type { OptionValues } from '../parse-command-line.js';
import { storeArguments } from '../store-arguments.js';
import { withHost } from '../with-host.js';
import { terminalLine } from '../terminal-text.js';

const KEYLESS_NOTE =
  'answering with the keyless offline model: neither ANTHROPIC_API_KEY nor OPENAI_API_KEY is set and no --model was given (e.g. --model sonnet)';

/** Runs interactive mode until the terminal closes; prints how to resume, and exits 0. */
export async function interactiveCommand(context: CliContext, values: OptionValues): Promise<number> {
  const paint = paintFor(context);
  const out = (line: string) => context.stdout.write(`${line}\n`);
  const printer = terminalPrinter((text) => context.stdout.write(text), paint);
  let session: InteractiveSession | undefined;
  const telemetry = (event: SessionEvent, { sessionId }: { sessionId: string }) => {
    if (session !== undefined && sessionId === session.current) printer.event(event);
  };
  const cwd = resolve(context.cwd, typeof values.cwd === 'string' ? values.cwd : '.');
  return withHost(
    context,
    values,
    async (host) => {
      const { sessionId: current, createdWith } = await startSession(host, values, cwd, context.env);
      await host.open(current);
      await showSession({ host, paint, out, current }, 'session');
      // No key and no --model: the keyless model answers, said once, as print mode says it (SPEC §25);
      // not before the picker, which is about to leave this session.
      if (createdWith === 'keyless' && values.model === undefined && values.pick !== true) out(paint.dim(KEYLESS_NOTE));
      out(paint.dim('Type a message, or /help. Ctrl-C cancels a running turn; Ctrl-C twice exits.'));
      const terminal = openTerminalInput(context, (message) => {
        out(paint.error(message));
      });
      session = {
        context,
        values,
        host,
        paint,
        printer,
        terminal,
        out,
        current,
        running: false,
        armed: false,
        picking: undefined,
        switched: () => undefined,
      };
      // `dsh --resume` without a value: the picker first, as `/resume` shows it.
      if (values.pick === true) await runSlashCommand(session, { name: 'resume' });
      await runInteractiveLoop(session);
      out(paint.dim(`bye — resume with: dsh --resume ${terminalLine(session.current)}${storeArguments(context, values)}`));
      return 0;
    },
    { telemetry },
  );
}
