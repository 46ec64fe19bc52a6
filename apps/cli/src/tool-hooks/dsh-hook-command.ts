/**
 * @module dsh-hook-command
 * The exact command dsh's hooks run (Claude Code, Codex; pi's extension spawns its argv): this node and
 * this dsh's bin by absolute path, `checkpoint --from TOOL`, and `--data DIR` when the data folder is not
 * the default. The same line is how `dsh hooks remove` recognises dsh's hooks.
 */
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { shellCommand } from '../shell-command.js';
import type { HookTool } from './hook-tools.js';

/** This dsh's bin script (bin/dsh.js beside src/ and dist/, whichever runs). */
export const DSH_BIN_PATH = fileURLToPath(new URL('../../bin/dsh.js', import.meta.url));

/** The hook's argv: `NODE BIN checkpoint --from TOOL [--data DIR]` (`dataDir` named only when it is not ~/.dsh). */
export function dshHookArgv(dataDir: string, tool: HookTool, node = process.execPath, bin = DSH_BIN_PATH): string[] {
  const words = [node, bin, 'checkpoint', '--from', tool];
  if (resolve(dataDir) !== resolve(homedir(), '.dsh')) words.push('--data', resolve(dataDir));
  return words;
}

/** The hook's command line: `dshHookArgv` with each word quoted for a POSIX shell. */
export function dshHookCommand(dataDir: string, tool: HookTool = 'claude-code', node = process.execPath, bin = DSH_BIN_PATH): string {
  // Claude Code runs hook commands with `sh -c`; Codex with the user's shell (`-lc`), POSIX quoting too.
  return shellCommand(dshHookArgv(dataDir, tool, node, bin));
}
