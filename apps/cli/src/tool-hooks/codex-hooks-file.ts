/**
 * @module codex-hooks-file
 * Codex's hooks file for `dsh hooks … codex` (SPEC §23): `--user`: `hooks.json` in `$CODEX_HOME` or
 * ~/.codex; `--project DIR`: DIR/.codex/hooks.json (Codex loads it only while it trusts that project).
 * Its `hooks` object has Claude Code's shape, so it is read, merged and written like Claude Code's
 * settings (`claude-settings-file.ts`, `claude-settings-hooks.ts`).
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';

/** The hooks file `dsh hooks … codex` edits: `--user`'s, else `--project DIR`'s (default: the current directory). */
export function codexHooksPath(context: CliContext, options: { user: boolean; project: string | undefined }): string {
  if (options.user && options.project !== undefined)
    throw new CliError('USAGE', '--user and --project DIR name two hooks files: give one.');
  if (options.user) {
    const configured = context.env.CODEX_HOME;
    return join(configured !== undefined && configured !== '' ? resolve(context.cwd, configured) : join(homedir(), '.codex'), 'hooks.json');
  }
  return join(resolve(context.cwd, options.project ?? '.'), '.codex', 'hooks.json');
}
