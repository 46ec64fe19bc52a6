/**
 * @module pi-extension-file
 * Where `dsh hooks install|remove pi` puts dsh's extension (`pi-extension-source.ts`) and how: pi
 * auto-loads `*.ts` from `$PI_CODING_AGENT_DIR/extensions/` (default ~/.pi/agent/extensions/, `--user`)
 * and from a project's `.pi/extensions/` (`--project DIR`). The folder is the user's: dsh writes only
 * `dsh-checkpoints.ts`, never over a file it did not write (or one edited since), and removes exactly
 * that file. Writes are atomic (a temp file linked or renamed into place), so pi never loads half a file.
 */
import { link, lstat, mkdir, readFile, rename, unlink } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { syncDir, writeTemp } from '../native-files.js';
import { isDshPiExtension, PI_EXTENSION_FILE_NAME } from './pi-extension-source.js';

/** Largest file dsh reads at its name (its own is a few KiB). */
const MAX_EXTENSION_BYTES = 1024 * 1024;

/** The extension file `dsh hooks … pi` writes or removes: `--user`'s, else `--project DIR`'s (default: the current directory). */
export function piExtensionPath(context: CliContext, options: { user: boolean; project: string | undefined }): string {
  if (options.user && options.project !== undefined)
    throw new CliError('USAGE', '--user and --project DIR name two extension folders: give one.');
  if (options.user) {
    const configured = context.env.PI_CODING_AGENT_DIR;
    const agentDir =
      configured !== undefined && configured !== ''
        ? resolve(context.cwd, configured.startsWith('~/') ? join(homedir(), configured.slice(2)) : configured)
        : join(homedir(), '.pi', 'agent');
    return join(agentDir, 'extensions', PI_EXTENSION_FILE_NAME);
  }
  return join(resolve(context.cwd, options.project ?? '.'), '.pi', 'extensions', PI_EXTENSION_FILE_NAME);
}

/** What is at the path: nothing, dsh's own unchanged file (its text), or something else (why it is not dsh's). */
type Found = { kind: 'none' } | { kind: 'dsh'; text: string } | { kind: 'other'; why: string };

async function inspect(path: string): Promise<Found> {
  const info = await lstat(path).catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  });
  if (info === undefined) return { kind: 'none' };
  if (!info.isFile()) return { kind: 'other', why: info.isSymbolicLink() ? 'a symbolic link' : 'not a regular file' };
  if (info.size > MAX_EXTENSION_BYTES) return { kind: 'other', why: `${String(info.size)} bytes, not dsh's extension` };
  const text = await readFile(path, 'utf8');
  return isDshPiExtension(text) ? { kind: 'dsh', text } : { kind: 'other', why: 'not written by dsh, or edited since' };
}

function notDsh(path: string, why: string, action: 'install' | 'remove'): CliError {
  return new CliError(
    'TARGET_EXISTS',
    `${path} is ${why}: dsh ${action === 'install' ? 'never overwrites' : 'removes only'} a file it wrote itself. Nothing was changed.`,
    {
      hint:
        action === 'install'
          ? 'move that file away (it is yours), then install again'
          : 'it is yours now: delete it yourself if you no longer want it',
    },
  );
}

/**
 * Writes `source` at `path` unless dsh's identical file is there. Returns `added` (there was none),
 * `replaced` (dsh's own, with another command) or `unchanged`. Refuses `TARGET_EXISTS` for any other file.
 */
export async function installPiExtension(path: string, source: string): Promise<'added' | 'replaced' | 'unchanged'> {
  const found = await inspect(path);
  if (found.kind === 'other') throw notDsh(path, found.why, 'install');
  if (found.kind === 'dsh' && found.text === source) return 'unchanged';
  const dir = dirname(path);
  await mkdir(dir, { recursive: true });
  const temp = await writeTemp(dir, PI_EXTENSION_FILE_NAME, source, 0o644);
  try {
    // A new file is linked into place (refused if one appeared meanwhile); dsh's own is replaced whole.
    if (found.kind === 'none') await link(temp, path);
    else await rename(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw notDsh(path, 'a file that appeared meanwhile', 'install');
    throw new CliError('WRITE_FAILED', `Cannot write ${path}: ${(error as Error).message}. Nothing was written.`, { cause: error });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dir);
  return found.kind === 'none' ? 'added' : 'replaced';
}

/** Deletes dsh's file at `path`: `removed`, or `absent` when nothing is there. Refuses `TARGET_EXISTS` for a file that is not dsh's. */
export async function removePiExtension(path: string): Promise<'removed' | 'absent'> {
  const found = await inspect(path);
  if (found.kind === 'none') return 'absent';
  if (found.kind === 'other') throw notDsh(path, found.why, 'remove');
  await unlink(path);
  await syncDir(dirname(path));
  return 'removed';
}
