/**
 * @module claude-settings-file
 * Claude Code's settings file for `dsh hooks` (SPEC §23): which file (`--project DIR`:
 * DIR/.claude/settings.json; `--user`: `$CLAUDE_CONFIG_DIR` or ~/.claude, then settings.json), read
 * and refused whole when malformed, and replaced atomically (temp file + rename, its mode kept).
 */
import { mkdir, readFile, realpath, rename, stat, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, dirname, join, resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { syncDir, writeTemp } from '../native-files.js';

/** Largest settings file dsh reads (Claude Code's own are a few KiB). */
const MAX_SETTINGS_BYTES = 4 * 1024 * 1024;

/** The settings file `dsh hooks` edits: `--user`'s, else `--project DIR`'s (default: the current directory). */
export function claudeSettingsPath(context: CliContext, options: { user: boolean; project: string | undefined }): string {
  if (options.user && options.project !== undefined)
    throw new CliError('USAGE', '--user and --project DIR name two settings files: give one.');
  if (options.user) {
    const configDir = context.env.CLAUDE_CONFIG_DIR;
    const home = configDir !== undefined && configDir !== '' ? resolve(context.cwd, configDir) : join(homedir(), '.claude');
    return join(home, 'settings.json');
  }
  return join(resolve(context.cwd, options.project ?? '.'), '.claude', 'settings.json');
}

/** The file's text and mode, or `undefined` when it does not exist yet; `INVALID_SETTINGS` for what is not a regular file or is too large. */
export async function readClaudeSettings(path: string): Promise<{ text: string; mode: number; target: string } | undefined> {
  const target = await realpath(path).catch(() => path);
  const info = await stat(target).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return undefined;
  if (!info.isFile()) throw new CliError('INVALID_SETTINGS', `${path} is not a regular file. Nothing was written.`);
  if (info.size > MAX_SETTINGS_BYTES)
    throw new CliError(
      'INVALID_SETTINGS',
      `${path} holds ${String(info.size)} bytes; expected a settings file of at most ${String(MAX_SETTINGS_BYTES)}. Nothing was written.`,
    );
  return { text: await readFile(target, 'utf8'), mode: info.mode & 0o7777, target };
}

/** Replaces the file (a symlink's target) with `settings` as 2-space JSON: temp file beside it, fsync, rename, folder fsync. */
export async function writeClaudeSettings(
  path: string,
  settings: unknown,
  existing: { mode: number; target: string } | undefined,
): Promise<void> {
  const target = existing?.target ?? path;
  const dir = dirname(target);
  await mkdir(dir, { recursive: true });
  const temp = await writeTemp(dir, basename(target), `${JSON.stringify(settings, null, 2)}\n`, existing?.mode ?? 0o644);
  try {
    await rename(temp, target);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw new CliError('WRITE_FAILED', `Cannot replace ${target}: ${(error as Error).message}. Nothing was written.`, { cause: error });
  }
  await syncDir(dir);
}
