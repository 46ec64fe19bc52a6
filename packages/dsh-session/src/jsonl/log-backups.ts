/**
 * @module Backups kept beside a session's log whenever a writer rewrites it or drops bytes from it:
 * `<id>.jsonl.bak-<stamp>` (the whole log before a rewrite) and `<id>.jsonl.torn-<stamp>` (the torn
 * final line a repair cut off). No name ends in `.jsonl` or matches a temp-file name, so `list()`,
 * `open()` and temp cleanup never take them for a session or a leftover; dsh never deletes them.
 */
import { constants } from 'node:fs';
import { copyFile, link, open, unlink } from 'node:fs/promises';
import { errorCode, writeFileDurably } from './durable-files.js';

/** What a backup holds: the whole log before a rewrite, or the torn line a repair dropped. */
export type BackupKind = 'bak' | 'torn';

/** Compact UTC ISO time, sortable and valid in any file name: `20261201T031500123Z`. */
export function backupStamp(time: number): string {
  return new Date(time).toISOString().replace(/[-:.]/g, '');
}

/** Matches a backup's name; group 1 is the log's file name (`<id>.jsonl` in a store). @internal */
export const BACKUP_NAME = /^(.+)\.(?:bak|torn)-[0-9]{8}T[0-9]{9}Z(?:-[0-9]+)?$/;

const UNSUPPORTED = new Set(['EPERM', 'ENOTSUP', 'EOPNOTSUPP', 'ENOSYS', 'EXDEV']);

/**
 * Calls `create(name)` for `<path>.<kind>-<stamp>`, then `-1`, `-2`, … while the name is taken, so a
 * backup never replaces another. Returns the name used.
 */
async function withFreshName(path: string, kind: BackupKind, time: number, create: (name: string) => Promise<void>): Promise<string> {
  const base = `${path}.${kind}-${backupStamp(time)}`;
  for (let attempt = 0; ; attempt++) {
    const name = attempt === 0 ? base : `${base}-${String(attempt)}`;
    try {
      await create(name);
      return name;
    } catch (error) {
      if (errorCode(error) !== 'EEXIST') throw error;
    }
  }
}

/** fsyncs a file by path. */
async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Keeps the log at `path` as `<path>.bak-<stamp>` before it is replaced: a hard link to the current
 * inode (no copy; the rename that follows leaves the old bytes under the backup name), or an fsynced
 * copy where hard links are unsupported. The caller fsyncs the directory. Returns the backup's path.
 */
export function keepBackup(path: string, time: number): Promise<string> {
  return withFreshName(path, 'bak', time, async (name) => {
    try {
      await link(path, name);
    } catch (error) {
      if (!UNSUPPORTED.has(errorCode(error) ?? '')) throw error;
      await copyFile(path, name, constants.COPYFILE_EXCL);
      await syncFile(name);
    }
  });
}

/** Writes the bytes a repair drops from the log at `path` to `<path>.torn-<stamp>`, fsynced. The caller fsyncs the directory. */
export function keepTornTail(path: string, bytes: Uint8Array, time: number): Promise<string> {
  return withFreshName(path, 'torn', time, async (name) => {
    try {
      await writeFileDurably(name, bytes);
    } catch (error) {
      // Never leave half a backup behind (e.g. the disk filled up): the repair fails and retries at the next open.
      if (errorCode(error) !== 'EEXIST') await unlink(name).catch(() => undefined);
      throw error;
    }
  });
}

/**
 * Before a new `<path>.bak` is written (what `dsh migrate --write` keeps), moves an existing one to
 * `<path>.bak-<stamp>` so no earlier backup is ever overwritten. Returns the new name, if any.
 */
export async function setOlderBackupAside(path: string, time: number): Promise<string | undefined> {
  const older = `${path}.bak`;
  try {
    const name = await withFreshName(path, 'bak', time, (candidate) => link(older, candidate));
    await unlink(older);
    return name;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}
