/**
 * How a Codex session file dsh wrote gets into Codex's own listing (SPEC §26 "The tools' own
 * listings"). Codex 0.169 lists threads — the `codex resume` picker, `codex exec resume --last` —
 * from its SQLite state database (`$CODEX_HOME/state_5.sqlite`, table `threads`), not from the
 * rollout files, and records a thread there only when it runs or manages it. dsh does not write that
 * database: its schema changes between versions, Codex holds it open in WAL mode, and Node has no
 * SQLite of its own here. Instead dsh prints the command that makes Codex record the thread itself
 * without running a turn: `codex archive ID && codex unarchive ID` (Codex reads the rollout, records
 * the thread with its title and preview, moves the file to `archived_sessions/` and back). Only for a
 * file under a Codex sessions folder (elsewhere, archiving would move it into Codex's home).
 */
import { realpath } from 'node:fs/promises';
import { dirname, resolve, sep } from 'node:path';
import type { CliContext } from './cli-context.js';
import { nativeSessionsDir } from './native-session-files.js';
import { shellLineIn } from './shell-command.js';

const CODEX_SESSIONS = `${sep}.codex${sep}sessions${sep}`;

async function canonical(path: string): Promise<string> {
  return realpath(path).catch(() => resolve(path));
}

/** The argv pair that records thread `id` in Codex's listing, and the line that runs it (naming `CODEX_HOME` when needed), or undefined. */
export async function codexIndexCommand(
  context: CliContext,
  file: string,
  id: string,
): Promise<{ argv: string[][]; line: string } | undefined> {
  const folder = await canonical(dirname(file));
  const root = await canonical(nativeSessionsDir(context, 'codex'));
  let env: Record<string, string> = {};
  if (!`${folder}${sep}`.startsWith(`${root}${sep}`)) {
    // Under another home's `.codex/sessions`: that home must be named for Codex to find the thread.
    const at = `${folder}${sep}`.lastIndexOf(CODEX_SESSIONS);
    if (at < 0) return undefined;
    env = { CODEX_HOME: `${folder.slice(0, at)}${sep}.codex` };
  }
  const argv = [
    ['codex', 'archive', id],
    ['codex', 'unarchive', id],
  ];
  return { argv, line: argv.map((words) => shellLineIn({ env }, words)).join(' && ') };
}
