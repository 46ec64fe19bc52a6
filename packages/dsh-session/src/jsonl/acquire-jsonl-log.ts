/**
 * @module `acquireJsonlLog`: the writer of an existing log in a JSONL directory, under its lease. A
 * takeover of a lease whose holder was judged dead first moves the log to a new inode, so that holder —
 * if it is in fact only stopped — writes into the old, unlinked one and adds no byte to the log.
 */
import { copyFile, open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, syncDirectory } from './durable-files.js';
import { acquireFileLease } from './file-lease.js';
import { fileExists, leasesDir, logFile } from './jsonl-paths.js';
import type { JsonlState } from './jsonl-state.js';
import { makeJsonlWriter } from './jsonl-writer.js';
import { LineEnds } from './line-ends.js';
import { sessionTempName } from './session-temp-name.js';
import type { FastWriter } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import { notFoundError, writeFailed } from '../store-errors.js';

/** Takes session `id`'s lease and opens its log for appends; `SESSION_NOT_FOUND` when there is none. */
export async function acquireJsonlLog(state: JsonlState, id: string): Promise<FastWriter> {
  const { dir } = state;
  const path = logFile(dir, id);
  if (!(await fileExists(path))) throw notFoundError(id);
  const lease = await acquireFileLease(leasesDir(dir), id, state.now);
  let handle: FileHandle;
  try {
    if (lease.tookOver) await moveToNewInode(dir, id, path);
    handle = await open(path, 'r+');
  } catch (error) {
    await lease.release();
    if (errorCode(error) === 'ENOENT') throw notFoundError(id);
    throw SessionError.is(error) ? error : writeFailed(id, 'take over', error);
  }
  const { size } = await handle.stat();
  return makeJsonlWriter(state, id, path, lease, {
    handle,
    size,
    lines: -1,
    ends: new LineEnds(),
    current: false,
    crc: 0,
    verified: false,
    base: 0,
  });
}

/** Copies the log to a new file (fsynced) and renames it over the old one: same bytes, new inode. */
async function moveToNewInode(dir: string, id: string, path: string): Promise<void> {
  const temp = join(dir, sessionTempName(id));
  try {
    await copyFile(path, temp);
    const handle = await open(temp, 'r+');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
    await syncDirectory(dir);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
}
