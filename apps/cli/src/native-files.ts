/**
 * File handling for the native commands (`dsh fork FILE`, `dsh repair FILE`, `dsh export
 * --format claude-code|codex|pi`): a read that notices a file changing under it, a new file
 * published atomically without overwriting, and a replacement that keeps `FILE.bak`.
 */
import { randomBytes } from 'node:crypto';
import { link, open, rename, stat, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './cli-error.js';

type Stamp = { size: number; mtimeMs: number; ino: number };

const stampOf = (stats: { size: number; mtimeMs: number; ino: number }): Stamp => ({ size: stats.size, mtimeMs: stats.mtimeMs, ino: stats.ino });
const same = (a: Stamp, b: Stamp) => a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;

/** A file's text and the stamp (size, mtime, inode) it had while being read. */
export type StableRead = { text: string; stamp: Stamp };

/** Reads `path`; a file another process changed during the read is refused (`SOURCE_CHANGED`). */
export async function readStable(path: string): Promise<StableRead> {
  let handle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new CliError('FILE_NOT_FOUND', `Cannot read ${path}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  try {
    const before = stampOf(await handle.stat());
    const text = await handle.readFile('utf8');
    const after = stampOf(await handle.stat());
    if (!same(before, after) || Buffer.byteLength(text) !== after.size) throw changed(path, before, after);
    return { text, stamp: after };
  } finally {
    await handle.close();
  }
}

/** Refuses when `path` no longer has the stamp it was read with (another process appended to it). */
export async function assertUnchanged(path: string, read: StableRead): Promise<void> {
  const now = stampOf(await stat(path));
  if (!same(read.stamp, now)) throw changed(path, read.stamp, now);
}

function changed(path: string, before: Stamp, after: Stamp): CliError {
  return new CliError(
    'SOURCE_CHANGED',
    `${path} changed while dsh read it (expected ${String(before.size)} bytes, found ${String(after.size)}): another process is writing to it. Nothing was written.`,
    { hint: 'wait until the tool has finished writing (or stop it), then run the command again' },
  );
}

async function writeTemp(dir: string, name: string, text: string): Promise<string> {
  const temp = join(dir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return temp;
}

async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `text` as the new file `path`: temp file + fsync, then a hard link to the final name (which
 * never replaces an existing file: `TARGET_EXISTS`), then the directory fsync. Never a partial file.
 */
export async function publishNewFile(path: string, text: string): Promise<void> {
  const dir = dirname(path);
  const temp = await writeTemp(dir, basename(path), text);
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError('TARGET_EXISTS', `${path} already exists; dsh never overwrites a session file. Nothing was written.`, { hint: 'choose another --out, or remove that file first' });
    }
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dir);
}

/** Replaces `path` with `text` atomically, keeping the previous contents as `path.bak` (also atomic). */
export async function replaceKeepingBackup(path: string, previous: string, text: string): Promise<void> {
  const dir = dirname(path);
  const name = basename(path);
  await rename(await writeTemp(dir, `${name}.bak`, previous), `${path}.bak`);
  const temp = await writeTemp(dir, name, text);
  await rename(temp, path);
  await syncDir(dir);
}

/** Whether `path` names an existing regular file (the native commands' FILE argument). */
export async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

/** A UUID version 7 (time-ordered), as Codex and pi name their sessions. */
export function uuidV7(now: number): string {
  const bytes = randomBytes(16);
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | ((bytes[6] as number) & 0x0f);
  bytes[8] = 0x80 | ((bytes[8] as number) & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
