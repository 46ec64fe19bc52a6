/**
 * The native fork's memory bound (SPEC §24): the byte path holds the file's bytes and one row of
 * integers a line (plus what the cut and the child keep a line), so a file of tiny lines needs many
 * times its size. When the scanner's first guess of the line count (a line per 128 bytes) is short,
 * the lines are counted and the fork either stays within its bound — at most 4× the file's size,
 * never less than 64 MiB, or `maxMemoryBytes` — or is refused `FILE_TOO_LARGE`, naming what it
 * would need, before the larger memory is made.
 * @module
 */
import { ImportError } from '../../import-error.js';

/** What the fork keeps a line beyond the file's bytes, measured on files of short lines: its row (80 bytes), its strings' keys and slots, its place in the entry index, the chain and the child's runs. */
export const FORK_BYTES_PER_LINE = 512;
/** The bound of a small file: a fork may always use this much. */
export const MIN_FORK_MEMORY = 64 * 1024 * 1024;

/** The bound of a fork of `size` bytes: `maxMemoryBytes`, else 4× the size (at least `MIN_FORK_MEMORY`). */
export function forkMemoryBound(size: number, maxMemoryBytes?: number): number {
  return maxMemoryBytes ?? Math.max(4 * size, MIN_FORK_MEMORY);
}

/** The lines of `bytes`: its newlines, and one more for a last line without one. */
export function lineCount(bytes: Uint8Array): number {
  let lines = 0;
  for (let at = bytes.indexOf(10); at >= 0; at = bytes.indexOf(10, at + 1)) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

/**
 * `FILE_TOO_LARGE` when the byte path's fork of `bytes` (`lines` lines), whose rows did not fit the
 * first guess, would need more than its bound: the file twice (its bytes and the scanner's copy)
 * and `FORK_BYTES_PER_LINE` a line.
 */
export function checkForkMemory(bytes: Uint8Array, lines: number, maxMemoryBytes?: number): void {
  const bound = forkMemoryBound(bytes.length, maxMemoryBytes);
  const need = 2 * bytes.length + lines * FORK_BYTES_PER_LINE;
  if (need <= bound) return;
  const limit = maxMemoryBytes === undefined ? "4× the file's size, at least 64 MiB" : 'maxMemoryBytes';
  throw new ImportError(
    'FILE_TOO_LARGE',
    `a native fork of this ${mib(bytes.length)} file of ${String(lines)} lines would need about ${mib(need)} of memory (the file twice and ${String(FORK_BYTES_PER_LINE)} bytes a line); expected at most ${mib(bound)} (${limit})`,
  );
}
