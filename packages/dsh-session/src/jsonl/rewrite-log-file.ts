/**
 * @module Rewrites a JSONL log file in place (what `dsh migrate FILE --write` does) as one more
 * writer of the session: under the session's single-writer lease when the file is a session of a
 * JSONL store, with the store's temp-file names, atomically, keeping `FILE.bak` (an earlier
 * `FILE.bak` is moved to `FILE.bak-<stamp>`, never overwritten).
 */
import { copyFile, mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join, resolve } from 'node:path';
import { syncDirectory, writeAll, writeFileDurably, type WriteChunk } from './durable-files.js';
import { acquireFileLease, type FileLease } from './file-lease.js';
import { leaseLost } from '../store-errors.js';
import { setOlderBackupAside } from './log-backups.js';
import { materializeLogFile } from './materialize-log-file.js';
import { isValidSessionId } from '../session-id.js';
import { sessionTempName } from './session-temp-name.js';

const LEASES = '.leases';

async function syncFile(path: string): Promise<void> {
  const handle = await open(path, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * What `rewriteLogFile` did: `written: false` when `transform` returned the same text or undefined;
 * `backup` the original's path, `olderBackup` where an earlier backup was moved.
 */
export type RewriteOutcome = { written: boolean; backup?: string; olderBackup?: string };

/**
 * The steps of a rewrite, in order, as `onStep` reports them: the lease is held; half the new log is
 * in its temp file; the temp file is complete and fsynced; the original is kept as `FILE.bak`; the
 * new log is renamed over `FILE` (its directory entry not yet fsynced); the directory is fsynced.
 */
export type RewriteStep = 'lease-taken' | 'temp-partly-written' | 'temp-synced' | 'backup-kept' | 'renamed' | 'directory-synced';

/**
 * Reads `file` under its session's lease (`<dir>/.leases/<id>` for `<dir>/<id>.jsonl`; refuses with
 * `SESSION_BUSY` naming the holder while another process writes it), passes the text to `transform`
 * (a store's manifest with its segments: one self-contained log, `materializeLogFile`),
 * and when that returns different text replaces the file atomically, keeping the original as
 * `FILE.bak` (an earlier `FILE.bak` becomes `FILE.bak-<stamp>`). A crash midway leaves the file as it was
 * (or already replaced, from `renamed` on) plus temp files a store removes at open. `onStep` is called
 * after each step (`RewriteStep`), for progress and for fault tests that stop the process there.
 */
export async function rewriteLogFile(
  file: string,
  transform: (text: string) => string | undefined,
  options: { onStep?: (step: RewriteStep) => void } = {},
): Promise<RewriteOutcome> {
  const step = options.onStep ?? (() => undefined);
  const path = resolve(file);
  const dir = dirname(path);
  const name = basename(path);
  const id = name.endsWith('.jsonl') ? name.slice(0, -'.jsonl'.length) : '';
  let lease: FileLease | undefined;
  if (isValidSessionId(id)) {
    await mkdir(join(dir, LEASES), { recursive: true });
    lease = await acquireFileLease(join(dir, LEASES), id);
  }
  step('lease-taken');
  const tempId = lease === undefined ? 'file' : id;
  const temp = join(dir, sessionTempName(tempId));
  const backupTemp = join(dir, sessionTempName(tempId, 'backup'));
  try {
    // Read under the lease: an append that landed before it is part of what gets rewritten.
    // A store's manifest is read with its segments: `transform` sees one self-contained log.
    const text = (await materializeLogFile(path, await readFile(path))).toString('utf8');
    const next = transform(text);
    if (next === undefined || next === text) return { written: false };
    // Written in two halves when observed, so a fault test can stop it with the temp file half-written.
    const write: WriteChunk =
      options.onStep === undefined
        ? writeAll
        : async (handle, bytes, position) => {
            const half = bytes.length >> 1;
            await writeAll(handle, bytes.subarray(0, half), position);
            step('temp-partly-written');
            await writeAll(handle, bytes.subarray(half), position + half);
          };
    await writeFileDurably(temp, Buffer.from(next, 'utf8'), write);
    step('temp-synced');
    await copyFile(path, backupTemp);
    await syncFile(backupTemp);
    const olderBackup = await setOlderBackupAside(path, Date.now());
    await rename(backupTemp, `${path}.bak`);
    step('backup-kept');
    // Fenced like the store's own rewrite: a writer that took the lease over meanwhile (this process
    // judged dead, or the lease broken) owns the log now, and it must not be replaced under it.
    if (lease !== undefined && !(await lease.stillHeld())) throw leaseLost(id, path);
    await rename(temp, path);
    step('renamed');
    await syncDirectory(dir);
    step('directory-synced');
    return olderBackup === undefined ? { written: true, backup: `${path}.bak` } : { written: true, backup: `${path}.bak`, olderBackup };
  } finally {
    await unlink(temp).catch(() => undefined);
    await unlink(backupTemp).catch(() => undefined);
    await lease?.release();
  }
}
