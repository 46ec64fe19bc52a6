/**
 * @module How every command reads a FILE argument (`validate`, `migrate`, `import`, `fork FILE`,
 * `repair`): opened non-blocking (so a FIFO never hangs the open), checked on the opened descriptor
 * before a byte is read — a directory, FIFO, device or socket is `NOT_A_FILE`, a file over the
 * bound `FILE_TOO_LARGE` — then read in chunks (synchronously), never past the bound even if the file grows, with
 * progress on a terminal's stderr. A stable read also refuses a file that changed while it was
 * read (`SOURCE_CHANGED`), for the commands that write a file derived from it.
 */
import { constants, readSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import type { CliContext } from './cli-context.js';
import { CliError } from './cli-error.js';
import { formatBytes, progressLine, type ProgressLine } from './progress-line.js';

/** The default bound of an input file: 256 MiB (`--max-bytes N` changes it). */
export const DEFAULT_MAX_INPUT_BYTES = 256 * 1024 * 1024;
const CHUNK_BYTES = 1024 * 1024;
/** The chunk of the size the file had when opened (16 MiB: one read for most session files). */
const FIRST_CHUNK_BYTES = 16 * 1024 * 1024;

/** `--max-bytes N` as a number of bytes, or the default; a `USAGE` error for anything but a positive integer. */
export function maxBytesOption(value: string | boolean | string[] | undefined): number {
  if (value === undefined || typeof value === 'boolean' || Array.isArray(value)) return DEFAULT_MAX_INPUT_BYTES;
  if (!/^\d+$/.test(value.trim()) || Number(value) === 0)
    throw new CliError('USAGE', `--max-bytes expects a positive number of bytes, received '${value}'.`);
  return Number(value);
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO (named pipe)';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  if (info.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** `FILE_TOO_LARGE` for `file` over `maxBytes` (`size`: what it holds, in words). */
export function tooLarge(file: string, maxBytes: number, size: string): CliError {
  return new CliError(
    'FILE_TOO_LARGE',
    `${file}: expected a file of at most ${String(maxBytes)} bytes (${formatBytes(maxBytes)}), received ${size}.`,
    {
      hint: 'raise the bound with --max-bytes N if the file is what you meant',
    },
  );
}

/**
 * The file's bytes: read into one buffer of the size it had when opened (`allocate`'s), in chunks
 * of 16 MiB, `onRead` looking at what is there after each — then on in chunks if it grew, never
 * past the bound. The reads are synchronous: a command reads its one file with nothing else to do
 * meanwhile, and a read in the thread pool, the next chunk's under way while `onRead` scans the
 * last, measured slower (the two threads' page faults and copies share the machine's memory).
 */
function readChunks(
  handle: FileHandle,
  file: string,
  size: number,
  maxBytes: number,
  progress: ProgressLine,
  options: InputReadOptions,
): Uint8Array {
  const whole = (options.allocate ?? ((n) => Buffer.allocUnsafe(n)))(size);
  let total = 0;
  while (total < size) {
    const bytesRead = readSync(handle.fd, whole, total, Math.min(FIRST_CHUNK_BYTES, size - total), null);
    if (bytesRead === 0) return whole.subarray(0, total);
    total += bytesRead;
    options.onRead?.(whole, total);
    progress.update(`reading ${file}: ${formatBytes(total)} of ${formatBytes(size)}`);
  }
  const chunks: Uint8Array[] = [whole];
  for (;;) {
    // One byte past the bound is read to tell a file that grew past it from one that ends there.
    const want = Math.min(CHUNK_BYTES, maxBytes + 1 - total);
    const buffer = Buffer.allocUnsafe(want);
    const bytesRead = readSync(handle.fd, buffer, 0, want, null);
    if (bytesRead === 0) break;
    chunks.push(bytesRead === want ? buffer : buffer.subarray(0, bytesRead));
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(file, maxBytes, 'more than that (the file grew while it was read)');
    progress.update(`reading ${file}: ${formatBytes(total)} of ${formatBytes(size)}`);
  }
  return chunks.length === 1 ? whole : Buffer.concat(chunks, total);
}

/** What identifies a file's contents between two looks at it: size, modification time, inode. */
export type FileStamp = { size: number; mtimeMs: number; ino: number };

/** A file's text and the stamp it had before and after the read. */
export type InputRead = { text: string; stamp: FileStamp };

/**
 * Options of a read: `stable` refuses a file that changed during it; `allocate` gives the buffer
 * the bytes are read into, and `onRead` hears after each chunk how much of it is read
 * (a `nativeFileReader`'s `bytes` and `onRead`); `beforeRead` runs between the check and
 * the first byte (tests).
 */
export type InputReadOptions = {
  stable?: boolean;
  allocate?: (size: number) => Uint8Array;
  onRead?: (bytes: Uint8Array, length: number) => void;
  beforeRead?: () => Promise<void>;
};

const stampOf = (info: Stats): FileStamp => ({ size: info.size, mtimeMs: info.mtimeMs, ino: info.ino });

/** Whether two stamps name the same contents. */
export function sameStamp(a: FileStamp, b: FileStamp): boolean {
  return a.size === b.size && a.mtimeMs === b.mtimeMs && a.ino === b.ino;
}

/** `SOURCE_CHANGED`: `file` had `before` when dsh started reading and `after` later. */
export function sourceChanged(file: string, before: FileStamp, after: FileStamp): CliError {
  const what =
    before.size === after.size
      ? `its modification time or inode changed (size ${String(after.size)} bytes)`
      : `expected ${String(before.size)} bytes, found ${String(after.size)}`;
  return new CliError(
    'SOURCE_CHANGED',
    `${file} changed while dsh read it (${what}): another process is writing to it. Nothing was written.`,
    {
      hint: 'wait until the tool has finished writing (or stop it), then run the command again',
    },
  );
}

/**
 * The UTF-8 text of `file`, refused before reading when it is not a regular file (`NOT_A_FILE`) or
 * over `maxBytes` (`FILE_TOO_LARGE`); `FILE_NOT_FOUND` when it does not exist, `READ_FAILED` otherwise.
 */
export async function readInputFile(context: CliContext, file: string, maxBytes: number = DEFAULT_MAX_INPUT_BYTES): Promise<string> {
  return (await readInputFileStamped(context, file, maxBytes)).text;
}

/** `readInputFile` with the file's stamp; `{ stable: true }` adds `SOURCE_CHANGED` when it changed during the read. */
export async function readInputFileStamped(
  context: CliContext,
  file: string,
  maxBytes: number,
  options: InputReadOptions = {},
): Promise<InputRead> {
  const read = await readInputBytesStamped(context, file, maxBytes, options);
  return { text: Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength).toString('utf8'), stamp: read.stamp };
}

/** A file's bytes, the stamp it had after the read and its mode (type and permission bits). */
export type InputBytesRead = { bytes: Uint8Array; stamp: FileStamp; mode: number };

/**
 * `readInputFileStamped` without decoding: the file's bytes (for `dsh fork FILE`, which copies
 * lines as bytes). Same checks and errors.
 */
export async function readInputBytesStamped(
  context: CliContext,
  file: string,
  maxBytes: number,
  options: InputReadOptions = {},
): Promise<InputBytesRead> {
  let handle: FileHandle;
  try {
    // O_NONBLOCK: opening a FIFO for reading returns at once instead of waiting for a writer.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new CliError('FILE_NOT_FOUND', `Cannot read ${file}: no such file.`, { cause: error });
    throw new CliError('READ_FAILED', `Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  }
  const progress = progressLine(context);
  try {
    const info = await handle.stat();
    if (!info.isFile()) {
      throw new CliError('NOT_A_FILE', `${file}: expected a regular file, received ${kindOf(info)}; nothing was read.`, {
        hint: 'pass the path of a session file',
      });
    }
    if (info.size > maxBytes) throw tooLarge(file, maxBytes, `a file of ${String(info.size)} bytes (${formatBytes(info.size)})`);
    await options.beforeRead?.();
    const bytes = readChunks(handle, file, info.size, maxBytes, progress, options);
    const before = stampOf(info);
    const after = stampOf(await handle.stat());
    if (options.stable === true && (!sameStamp(before, after) || bytes.length !== before.size))
      throw sourceChanged(file, before, { ...after, size: Math.max(after.size, bytes.length) });
    return { bytes, stamp: after, mode: info.mode };
  } catch (error) {
    if (error instanceof CliError) throw error;
    throw new CliError('READ_FAILED', `Cannot read ${file}: ${(error as Error).message}`, { cause: error });
  } finally {
    progress.done();
    await handle.close().catch(() => undefined);
  }
}
