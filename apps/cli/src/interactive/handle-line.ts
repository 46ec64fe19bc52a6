/**
 * @module handle-line
 * One submitted line of interactive mode: a number after the `/resume` picker, a slash command, or a
 * prompt run as a turn whose text streams while readline's echo is muted. A pasted text (a placeholder
 * on the line) is always part of a prompt: only what was typed can be a command.
 */
import { parseSlashCommand } from 'dsh-host/commands';
import { INTERACTIVE_COMMANDS } from './interactive-help.js';
import type { InteractiveSession } from './interactive-session.js';
import { runSlashCommand, runSlashInput } from './run-slash-command.js';

/** Runs `text` as a turn of the current session; resolves when it ends or `/branch` switched away. */
async function runTurn(session: InteractiveSession, text: string): Promise<void> {
  const { host, terminal } = session;
  session.running = true;
  // The turn's text is shown as it streams; its events (with their seqs) follow through telemetry.
  const deltas = await host.watchDeltas(session.current, (delta) => {
    session.printer.delta(delta);
  });
  const branched = new Promise<void>((resolveSwitch) => {
    session.switched = resolveSwitch;
  });
  terminal.mute(true);
  try {
    const target = session.current;
    await host.send(target, text);
    await Promise.race([host.idle(target), branched]);
  } finally {
    session.switched = () => undefined;
    terminal.mute(false);
    deltas.close();
    session.running = false;
    // A Ctrl-C that cancelled this turn stays armed: the next one, at the prompt, exits.
  }
}

/** Handles one line as typed (the picker first, then commands, then prompts). */
export async function handleLine(session: InteractiveSession, line: string): Promise<void> {
  session.armed = false;
  const typed = line.trim();
  const offered = session.picking;
  session.picking = undefined;
  if (offered !== undefined && /^\d+$/.test(typed)) {
    const picked = offered[Number(typed) - 1];
    if (picked === undefined) throw new Error(`/resume expects a number from 1 to ${String(offered.length)}; received ${typed}.`);
    await runSlashCommand(session, { name: 'resume', ref: picked.id });
    return;
  }
  const input = parseSlashCommand(typed, INTERACTIVE_COMMANDS);
  // An answer to the picker that is not a number cancels it: it is never sent to the model (SPEC §25).
  if (offered !== undefined && input.kind === 'message') {
    if (typed !== '') session.out(session.paint.dim('/resume cancelled: that was not a number, so nothing was sent to the model'));
    return;
  }
  if (input.kind !== 'message') {
    await runSlashInput(session, input);
    return;
  }
  if (input.text === '') return;
  await runTurn(session, session.terminal.expand(input.text));
}
