/**
 * File handling for the native commands (`dsh fork FILE`, `dsh repair FILE`, `dsh export
 * --format claude-code|codex|pi`): the check that a file read (by `readInputFileStamped`) is still
 * as read, a new file published atomically without overwriting (through a temp file named after the
 * dsh process that writes it), and the removal of such temp files a killed dsh left.
 */
import { randomBytes } from 'node:crypto';
import { link, open, readdir, stat, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { CliError } from './cli-error.js';
import { sameStamp, sourceChanged, type FileStamp } from './read-input-file.js';

/** Refuses when `path` no longer has the stamp it was read with (another process appended to it). */
export async function assertUnchanged(path: string, read: { stamp: FileStamp }): Promise<void> {
  const info = await stat(path);
  const now = { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino };
  if (!sameStamp(read.stamp, now)) throw sourceChanged(path, read.stamp, now);
}

/** What a new file holds: text, bytes, or chunks of bytes written in order with one gathering write. */
export type FileContents = string | Uint8Array | readonly Uint8Array[];

/** Writes every chunk: `writev` may write less than asked (a full disk), so the rest is written again until it throws. */
async function writeChunks(handle: FileHandle, chunks: readonly Uint8Array[]): Promise<void> {
  let rest = chunks.filter((chunk) => chunk.length > 0);
  while (rest.length > 0) {
    let { bytesWritten } = await handle.writev(rest);
    if (bytesWritten === 0) throw new Error('no byte could be written');
    let next = 0;
    while (next < rest.length && bytesWritten >= (rest[next] as Uint8Array).length) bytesWritten -= (rest[next++] as Uint8Array).length;
    rest = rest.slice(next);
    if (bytesWritten > 0) rest[0] = (rest[0] as Uint8Array).subarray(bytesWritten);
  }
}

/** A temp file dsh writes: `.<name>.dsh-<pid>-<12 hex>.tmp` (the pid tells a killed writer's leftover from a live one's). */
const TEMP_NAME = /^\..+\.dsh-(\d+)-[0-9a-f]{12}\.tmp$/;

/** Whether process `pid` is running (one of another user counts: it cannot be signalled, but it is there). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/**
 * Removes from `dir` the temp files (dsh's own names only) whose dsh process is no longer running —
 * what a fork, repair or export killed mid-write left. Best effort: a folder that cannot be listed is left.
 */
export async function removeStaleTemps(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const pid = TEMP_NAME.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || isRunning(Number(pid))) continue;
    await unlink(join(dir, name)).catch(() => undefined);
  }
}

/**
 * `contents` in a new temp file beside `name` in `dir`, fsynced, with `mode` (default 0600). A
 * failure (a full disk, a folder that cannot be written) is `WRITE_FAILED`, and the temp file is removed again.
 */
export async function writeTemp(dir: string, name: string, contents: FileContents, mode = 0o600): Promise<string> {
  const temp = join(dir, `.${name}.dsh-${String(process.pid)}-${randomBytes(6).toString('hex')}.tmp`);
  let handle: FileHandle | undefined;
  try {
    handle = await open(temp, 'wx', mode);
    // The umask may have taken bits off the mode asked for.
    if (mode !== 0o600) await handle.chmod(mode);
    if (typeof contents === 'string' || contents instanceof Uint8Array) await handle.writeFile(contents);
    else await writeChunks(handle, contents);
    await handle.sync();
    await handle.close();
    return temp;
  } catch (error) {
    await handle?.close().catch(() => undefined);
    if (handle !== undefined) await unlink(temp).catch(() => undefined);
    throw new CliError('WRITE_FAILED', `Cannot write ${join(dir, name)}: ${(error as Error).message}. Nothing was written there.`, {
      hint: 'free space on that disk (or make the folder writable), then run the command again',
      cause: error,
    });
  }
}

/** Fsyncs the folder `dir` (a new name in it is then durable). */
export async function syncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `contents` (text, bytes or chunks) as the new file `path`: temp file + fsync, then a hard link to the final
 * name (which never replaces an existing file: `TARGET_EXISTS`), then the directory fsync. Never a
 * partial file.
 */
export async function publishNewFile(path: string, contents: FileContents): Promise<void> {
  const dir = dirname(path);
  await removeStaleTemps(dir);
  const temp = await writeTemp(dir, basename(path), contents);
  try {
    await link(temp, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new CliError('TARGET_EXISTS', `${path} already exists; dsh never overwrites a session file. Nothing was written.`, {
        hint: 'choose another --out, or remove that file first',
      });
    }
    throw error;
  } finally {
    await unlink(temp).catch(() => undefined);
  }
  await syncDir(dir);
}

/**
 * Whether `path` names something that exists (the native commands' FILE argument: a FIFO or a
 * directory there is then refused `NOT_A_FILE` by the read, not taken for a session id).
 */
export async function pathExists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
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
