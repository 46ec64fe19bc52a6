/**
 * @module fork-command
 * `dsh fork`: a native fork of a tool's session file, or a dsh session at an exact event. Each is
 * loaded on demand, so forking a file never loads the host, the store or PostgreSQL's client.
 */
import { resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { pathExists } from '../native-files.js';
import type { OptionValues } from '../parse-command-line.js';

/**
 * `dsh fork FILE --at REF`: the native fork of a Claude Code, Codex or pi file (SPEC §18).
 * `dsh fork ID|NAME …`: a dsh session (or a tool's session id that names none, see `forkSessionCommand`).
 */
export async function forkCommand(context: CliContext, values: OptionValues, ref: string): Promise<number> {
  // An argument naming an existing path is a Claude Code, Codex or pi session file (SPEC §18).
  if (await pathExists(resolve(context.cwd, ref)))
    return (await import('./native-fork-command.js')).nativeForkCommand(context, values, ref);
  return (await import('./fork-session-command.js')).forkSessionCommand(context, values, ref);
}
