/**
 * @module How `dsh repair FILE` changes FILE without losing a line a tool writes to it: FILE's
 * original bytes go to a new `FILE.bak` (or `FILE.bak.1`, … — never over one), then the closers are
 * appended to FILE's own inode with `O_APPEND`, after a last check that FILE still has the size and
 * inode that were read. A tool holding FILE's descriptor keeps writing into the same file; FILE keeps
 * its mode, owner and links (docs/decisions/2026-12-07-repair-appends-in-place.md).
 */
import { constants } from 'node:fs';
import { link, open, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { CliError } from './cli-error.js';
import { removeStaleTemps, syncDir, writeTemp } from './native-files.js';
import { sourceChanged, type FileStamp } from './read-input-file.js';

/** How many numbered backups (`FILE.bak.1` …) are tried before giving up. */
const MAX_BACKUPS = 1000;

/**
 * Writes `bytes` as the first free name of `FILE.bak`, `FILE.bak.1`, `FILE.bak.2`, … beside `file`
 * (temp file + fsync, hard-linked: never over an existing file, never a partial one), with `mode`.
 * Returns the backup's path.
 */
export async function writeBackup(file: string, bytes: Uint8Array, mode: number): Promise<string> {
  const dir = dirname(file);
  await removeStaleTemps(dir);
  const temp = await writeTemp(dir, `${basename(file)}.bak`, bytes, mode);
  try {
    for (let n = 0; n < MAX_BACKUPS; n++) {
      const backup = n === 0 ? `${file}.bak` : `${file}.bak.${String(n)}`;
      try {
        await link(temp, backup);
        await syncDir(dir);
        return backup;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
    }
    throw new CliError('TARGET_EXISTS', `${file}.bak through ${file}.bak.${String(MAX_BACKUPS - 1)} all exist; nothing was written.`, {
      hint: 'remove the backups you no longer need, then run the command again',
    });
  } finally {
    await unlink(temp).catch(() => undefined);
  }
}

/** Writes all of `bytes` at the end of the `O_APPEND` descriptor (a short write is followed by the rest). */
async function writeAll(handle: FileHandle, bytes: Uint8Array): Promise<void> {
  for (let done = 0; done < bytes.length;) {
    const { bytesWritten } = await handle.write(bytes, done, bytes.length - done);
    if (bytesWritten === 0) throw new Error('no byte could be written');
    done += bytesWritten;
  }
}

/**
 * Appends `bytes` to `file` in place: opened `O_WRONLY | O_APPEND` (never created, never replaced),
 * refused `SOURCE_CHANGED` unless it still has `stamp`'s inode and size; `torn` (the file's last
 * bytes) is cut off first. A failed write is undone back to the bytes read (`WRITE_FAILED`).
 */
export async function appendInPlace(
  file: string,
  stamp: FileStamp,
  bytes: Uint8Array,
  torn: Uint8Array = new Uint8Array(0),
): Promise<void> {
  const keep = stamp.size - torn.length;
  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_WRONLY | constants.O_APPEND | constants.O_NOFOLLOW);
  } catch (error) {
    throw new CliError('WRITE_FAILED', `Cannot open ${file} to append to it: ${(error as Error).message}. Nothing was written.`, {
      cause: error,
    });
  }
  try {
    const info = await handle.stat();
    if (info.ino !== stamp.ino || info.size !== stamp.size)
      throw sourceChanged(file, stamp, { size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });
    if (torn.length > 0) await handle.truncate(keep);
    try {
      await writeAll(handle, bytes);
      await handle.sync();
    } catch (error) {
      // Back to what was read (the original is also in the backup): never a half-appended closer.
      await handle.truncate(keep).catch(() => undefined);
      if (torn.length > 0) await writeAll(handle, torn).catch(() => undefined);
      throw new CliError('WRITE_FAILED', `Cannot append to ${file}: ${(error as Error).message}. It was left as it was.`, {
        hint: 'free space on that disk, then run the command again',
        cause: error,
      });
    }
  } finally {
    await handle.close().catch(() => undefined);
  }
}
