import { resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { Writable } from 'node:stream';
import type { SessionEvent } from 'dsh-codec';
import { sessionForest } from 'dsh-host';
import { parseSlashCommand, slashCommandHelp, SLASH_COMMAND_NAMES, type SlashCommand, type SlashInput } from 'dsh-host/commands';
import { CliError } from '../cli-error.js';
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { describeEvent } from '../describe-event.js';
import { forkWithOptions, slashForkRequest } from '../fork-with-options.js';
import { paintFor } from '../interactive-output.js';
import { BRACKETED_PASTE, pasteFilter } from '../paste-filter.js';
import type { OptionValues } from '../parse-command-line.js';
import { storeArguments } from '../store-arguments.js';
import { terminalPrinter } from '../terminal-printer.js';
import { pickerEntries, pickerLines, type PickerEntry } from '../resume-picker.js';
import { startSession } from '../interactive/start-session.js';
import { withHost } from '../with-host.js';
import { treeLines } from './sessions-command.js';

/** The commands interactive mode offers: all of the grammar's (`dsh-host/commands`). */
const OFFERED = SLASH_COMMAND_NAMES;

const HELP = [
  ...slashCommandHelp(OFFERED.slice(0, 2)),
  `${''.padEnd(20)}both take --cwd DIR, --tools a,b (only those config fields change) or --worktree`,
  ...slashCommandHelp(OFFERED.slice(2)),
  'Ctrl-C during a turn cancels it (recorded as cancelled). Lines typed during a turn wait for it to end;',
  '/branch typed during a turn acts at once (the running turn goes on in the session it started in).',
].join('\n');

/**
 * Interactive mode (`dsh` on a terminal, or `dsh --resume REF` / `--continue`): a prompt that runs a
 * turn per line and shows its text, tool calls and results with their seqs, plus slash commands to
 * branch, fork at a seq, rename, resume, compact and inspect. Assistant text is printed as it streams.
 * Ctrl-C cancels a running turn and a second Ctrl-C exits (a line typed in between disarms it).
 */
export async function interactiveCommand(context: CliContext, values: OptionValues): Promise<number> {
  const paint = paintFor(context);
  const out = (line: string) => context.stdout.write(`${line}\n`);
  let current = '';
  const printer = terminalPrinter((text) => context.stdout.write(text), paint);
  const telemetry = (event: SessionEvent, { sessionId }: { sessionId: string }) => {
    if (sessionId === current) printer.event(event);
  };
  const cwd = resolve(context.cwd, typeof values.cwd === 'string' ? values.cwd : '.');
  return withHost(
    context,
    values,
    async (host) => {
      const show = async (prefix: string) => {
        const observed = await host.observe(current);
        out(paint.bold(`${prefix} ${current}${observed.title === undefined ? '' : `  "${observed.title}"`}`) + paint.dim(`  (${String(observed.events.length)} events, last seq ${String(observed.events.length - 1)})`));
      };
      current = await startSession(host, values, cwd);
      await host.open(current);
      await show('session');
      out(paint.dim('Type a message, or /help. Ctrl-C cancels a running turn; Ctrl-C twice exits.'));

      // readline reads the keystrokes with pastes taken out whole (paste-filter.ts); the terminal is
      // put in raw mode and asked for bracketed paste here, and given back as it was on the way out.
      const terminal = context.stdin as NodeJS.ReadableStream & { setRawMode?: (mode: boolean) => unknown };
      const filter = pasteFilter((message) => {
        out(paint.error(message));
      });
      const input = Object.assign(filter.input, {
        isTTY: true,
        setRawMode: (mode: boolean) => {
          if (typeof terminal.setRawMode === 'function') terminal.setRawMode(mode);
          return input;
        },
      });
      const onData = (chunk: string | Buffer) => {
        filter.write(typeof chunk === 'string' ? chunk : chunk.toString('utf8'));
      };
      terminal.setEncoding('utf8');
      terminal.on('data', onData);
      context.stdout.write(BRACKETED_PASTE.enable);
      // Readline echoes keys to `echoOutput`, which is muted while a turn streams: a line typed meanwhile
      // never lands inside the answer; it is shown (and run) once the turn has ended.
      const echo = { muted: false };
      const echoOutput = new Writable({
        write(chunk: Buffer | string, _encoding, callback) {
          if (!echo.muted) context.stdout.write(chunk);
          callback();
        },
      });
      Object.defineProperty(echoOutput, 'columns', { get: () => (context.stdout as { columns?: number }).columns ?? 80 });
      const rl = createInterface({ input, output: echoOutput, terminal: true });
      let picking: PickerEntry[] | undefined;
      // Resolved when /branch switches sessions during a turn, so the queue need not wait for the old one.
      let switched: () => void = () => undefined;
      let running = false;
      let armed = false;
      let done: () => void = () => undefined;
      const finished = new Promise<void>((resolveDone) => {
        done = resolveDone;
      });
      const quit = () => {
        rl.close();
      };
      rl.on('close', () => {
        context.stdout.write(BRACKETED_PASTE.disable);
        terminal.off('data', onData);
        terminal.pause();
        done();
      });
      rl.on('SIGINT', () => {
        if (armed) {
          quit();
          return;
        }
        armed = true;
        if (running) {
          out(paint.dim('^C cancelling the turn… (Ctrl-C again exits)'));
          void host.cancel(current);
        } else {
          out(paint.dim('^C (Ctrl-C again, Ctrl-D or /exit quits)'));
          rl.prompt();
        }
      });

      const command = async (parsed: SlashCommand): Promise<void> => {
        const name = parsed.name;
        switch (name) {
          case 'help':
            out(HELP);
            return;
          case 'exit':
            quit();
            return;
          case 'branch':
          case 'fork': {
            const request = slashForkRequest(parsed, context.cwd);
            const { result: forked, warning } = await forkWithOptions(host, resolveDataDir(context, values.data), current, request);
            printer.endLine();
            if (warning !== undefined) out(paint.error(warning.trimEnd()));
            out(paint.dim(`forked ${forked.parentSession} at seq ${String(forked.forkCut)} (${String(forked.inheritedEventCount)} events inherited)`));
            if (running) out(paint.dim(`the running turn goes on in ${forked.parentSession} (/resume ${forked.parentSession} to return)`));
            current = forked.sessionId;
            await host.open(current);
            await show(name === 'fork' ? 'now in fork' : 'now in branch');
            // Lines held back during the parent's turn now run in the branch.
            switched();
            return;
          }
          case 'rename':
            await host.rename(current, parsed.title);
            out(paint.dim(`renamed ${current} to "${parsed.title}"`));
            return;
          case 'resume': {
            if (parsed.ref === undefined) {
              const entries = await pickerEntries(host, await host.list());
              if (entries.length === 0) throw new Error('/resume found no sessions to pick from.');
              out(pickerLines(entries, current).join('\n'));
              out(paint.dim('type a number to resume that session (anything else cancels)'));
              picking = entries;
              return;
            }
            const next = await host.resolve(parsed.ref);
            await host.open(next);
            const previous = current;
            current = next;
            if (previous !== next) await host.release(previous);
            await show('resumed');
            return;
          }
          case 'compact': {
            await host.compact(current);
            out(paint.dim('compacted: the model now sees a summary; every event stays in the log'));
            return;
          }
          case 'tree': {
            const items = await host.list();
            const lines = treeLines(sessionForest(items), new Map(items.map((item) => [item.id, item])));
            out(lines.map((row) => (row.includes(current) ? `${row}  *` : row)).join('\n'));
            return;
          }
          case 'events': {
            const observed = await host.observe(current);
            out(observed.events.map((event) => `${paint.dim(String(event.seq).padStart(4))}  ${event.type.padEnd(18)} ${describeEvent(event)}`).join('\n'));
            return;
          }
        }
      };
      const run = async (input: SlashInput): Promise<void> => {
        if (input.kind === 'invalid') throw new CliError('USAGE', input.message);
        if (input.kind === 'command') await command(input.command);
      };

      const handle = async (line: string): Promise<void> => {
        armed = false;
        const typed = line.trim();
        const offered = picking;
        picking = undefined;
        if (offered !== undefined && /^\d+$/.test(typed)) {
          const picked = offered[Number(typed) - 1];
          if (picked === undefined) throw new Error(`/resume expects a number from 1 to ${String(offered.length)}; received ${typed}.`);
          await command({ name: 'resume', ref: picked.id });
          return;
        }
        // A command is what was typed; pasted text (a placeholder on the line) is always a prompt.
        const input = parseSlashCommand(typed, OFFERED);
        if (input.kind !== 'message') {
          await run(input);
          return;
        }
        if (input.text === '') return;
        const text = filter.expand(input.text);
        running = true;
        // The turn's text is shown as it streams; its events (with their seqs) follow through telemetry.
        const deltas = await host.watchDeltas(current, (delta) => {
          printer.delta(delta);
        });
        const branched = new Promise<void>((resolveSwitch) => {
          switched = resolveSwitch;
        });
        echo.muted = true;
        try {
          const session = current;
          await host.send(session, text);
          await Promise.race([host.idle(session), branched]);
        } finally {
          switched = () => undefined;
          echo.muted = false;
          deltas.close();
          running = false;
          // A Ctrl-C that cancelled this turn stays armed: the next one, at the prompt, exits.
        }
      };

      rl.setPrompt('> ');
      rl.prompt();
      const failed = (error: unknown) => {
        const code = (error as { code?: unknown }).code;
        out(paint.error(`${typeof code === 'string' ? `${code}: ` : ''}${error instanceof Error ? error.message : String(error)}`));
      };
      // One line at a time: lines typed during a turn wait for it, then are shown as typed and run.
      let queue = Promise.resolve();
      rl.on('line', (line) => {
        const typedDuringTurn = running;
        const input = parseSlashCommand(line, OFFERED);
        if (typedDuringTurn && input.kind !== 'message' && (input.kind === 'command' ? input.command.name : input.command) === 'branch') {
          // /branch acts at once, as the demo's does: the fork is cut after the latest closed turn.
          void run(input).catch(failed);
          return;
        }
        queue = queue.then(async () => {
          // The prompt is already on screen: the held line completes it, as if typed now.
          if (typedDuringTurn) out(`${line}${paint.dim('  (typed during the turn)')}`);
          try {
            await handle(line);
          } catch (error) {
            failed(error);
          }
          // `true` keeps what was typed since (held back during a turn) on the new prompt line.
          if (!closed) rl.prompt(true);
        });
      });
      let closed = false;
      rl.on('close', () => {
        closed = true;
      });
      await finished;
      await queue;
      out(paint.dim(`bye — resume with: dsh --resume ${current}${storeArguments(context, values)}`));
      return 0;
    },
    { telemetry },
  );
}
