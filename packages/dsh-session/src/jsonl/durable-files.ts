/**
 * Small durable-file steps for the JSONL store: fsync a directory, write a file completely and fsync
 * it, publish a file under a name without overwriting. Kept apart so the protocol reads in one place.
 */
import { closeSync, fsync, linkSync, openSync, readSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { promisify } from 'node:util';
import { open, type FileHandle } from 'node:fs/promises';

/** Writes `bytes` at `position` with as many writes as the OS needs. */
export type WriteChunk = (handle: FileHandle, bytes: Uint8Array, position: number) => Promise<void>;

/**
 * Up to this many bytes the default `WriteChunk` writes synchronously: copying them into the page cache
 * takes microseconds, while a thread-pool round trip on a loaded machine took milliseconds (measured:
 * 2.7 ms per 40 KB batch under 64 writers, more than its `fdatasync`). Larger writes go through the pool
 * so one huge batch does not hold the event loop.
 */
export const SYNC_WRITE_MAX_BYTES = 1024 * 1024;

/** The default `WriteChunk`: positional writes until every byte is written (synchronous up to `SYNC_WRITE_MAX_BYTES`). */
export const writeAll: WriteChunk = async (handle, bytes, position) => {
  let offset = 0;
  if (bytes.length <= SYNC_WRITE_MAX_BYTES) {
    while (offset < bytes.length) offset += writeSync(handle.fd, bytes, offset, bytes.length - offset, position + offset);
    return;
  }
  while (offset < bytes.length) {
    const { bytesWritten } = await handle.write(bytes, offset, bytes.length - offset, position + offset);
    offset += bytesWritten;
  }
};

/** The errno code of a Node file-system error. */
export function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

/** A directory's fsync in flight, and the one queued behind it for every caller that came while it ran. */
type DirectorySync = { queued?: { promise: Promise<void>; start: () => void } };

/** The directory fsyncs of this process in flight, by path. */
const directorySyncs = new Map<string, DirectorySync>();

/** How many directory fsyncs this process made (tests count them). */
let directoryFsyncs = 0;

/** @internal How many directory fsyncs this process has made so far. */
export function directoryFsyncCount(): number {
  return directoryFsyncs;
}

/**
 * fsyncs a directory so a created, renamed or removed entry survives a crash. Callers of one process
 * share fsyncs: a call made while one is in flight waits for the next, which starts after it ends and
 * covers every call made meanwhile — each caller's entries are durable when its call resolves (an fsync
 * that started after them covers them), and eight forks published at once cost two fsyncs, not eight.
 */
export function syncDirectory(path: string): Promise<void> {
  const entry = directorySyncs.get(path);
  if (entry === undefined) {
    const fresh: DirectorySync = {};
    directorySyncs.set(path, fresh);
    return runDirectorySync(path, fresh);
  }
  if (entry.queued === undefined) {
    let start: () => void = () => undefined;
    const promise = new Promise<void>((resolve, reject) => {
      start = () => {
        runDirectorySync(path, entry).then(resolve, reject);
      };
    });
    entry.queued = { promise, start };
  }
  return entry.queued.promise;
}

/** One fsync of `path`; when it ends, the queued one starts (or the path has none in flight any more). */
function runDirectorySync(path: string, entry: DirectorySync): Promise<void> {
  return fsyncDirectory(path).finally(() => {
    const queued = entry.queued;
    if (queued === undefined) {
      directorySyncs.delete(path);
      return;
    }
    delete entry.queued;
    queued.start();
  });
}

const fsyncDescriptor = promisify(fsync);

/** One fsync of a directory: opened and closed synchronously (metadata calls of microseconds), the fsync its one thread-pool round trip. */
async function fsyncDirectory(path: string): Promise<void> {
  directoryFsyncs += 1;
  const fd = openSync(path, 'r');
  try {
    await fsyncDescriptor(fd);
  } catch (error) {
    // Some file systems refuse fsync on directories; their entries are then as durable as they get.
    if (errorCode(error) !== 'EINVAL' && errorCode(error) !== 'EISDIR') throw error;
  } finally {
    closeSync(fd);
  }
}

/** The first `size` bytes of an open file, read synchronously (a log's own lines, at most a few MiB); fewer when it is shorter. */
export function readExactlySync(handle: FileHandle, size: number): Buffer {
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const read = readSync(handle.fd, bytes, offset, size - offset, offset);
    if (read === 0) break;
    offset += read;
  }
  return offset === size ? bytes : bytes.subarray(0, offset);
}

/** Creates `path` exclusively with `bytes`, fully written and fsynced. */
export async function writeFileDurably(path: string, bytes: Uint8Array, write: WriteChunk = writeAll): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await write(handle, bytes, 0);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Publishes `temp` as `target` without ever overwriting: `link()` fails when `target` exists. Where
 * hard links are unsupported, falls back to `rename()`, safe only because the caller holds the lease
 * and has checked that `target` is absent. Returns false when `target` exists.
 */
// eslint-disable-next-line @typescript-eslint/require-await -- async for its callers; link and unlink are synchronous on purpose (two metadata syscalls cost less than two thread-pool round trips)
export async function publishWithoutOverwrite(temp: string, target: string): Promise<boolean> {
  try {
    linkSync(temp, target);
  } catch (error) {
    const code = errorCode(error);
    if (code === 'EEXIST') return false;
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    renameSync(temp, target);
    return true;
  }
  unlinkSync(temp);
  return true;
}

/** `size` bytes from the start of an open file; fewer when it is shorter than it was. */
export async function readExactly(handle: FileHandle, size: number): Promise<Buffer> {
  const bytes = Buffer.allocUnsafe(size);
  let offset = 0;
  while (offset < size) {
    const { bytesRead } = await handle.read(bytes, offset, size - offset, offset);
    if (bytesRead === 0) break;
    offset += bytesRead;
  }
  return offset === size ? bytes : bytes.subarray(0, offset);
}

/**
 * A whole file in one buffer, read with as few calls as the file system allows (`readFile` reads in
 * 512 KiB pieces: ~70 thread-pool round trips for a 35 MiB log). Bytes appended after the size was
 * taken are not read, as if the read had happened just before them.
 */
export async function readWholeFile(path: string): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    return await readExactly(handle, (await handle.stat()).size);
  } finally {
    await handle.close();
  }
}
