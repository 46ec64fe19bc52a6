/**
 * The native fork's memory bound (SPEC §24): the byte path holds the file's bytes, the scanner's
 * memory (its copy of them and regions sized from them) and one row of integers a line (plus what
 * the cut and the child keep a line), so a file of short lines needs many times its size. Every
 * scan's line count is checked: the fork either stays within its bound — at most 4× the file's
 * size, never less than 64 MiB, or `maxMemoryBytes` — or is refused `FILE_TOO_LARGE`, naming what
 * it would need, before the per-line memory is made (when the rows overflow the scanner's first
 * guess, a line per 128 bytes, before the larger scan too).
 * @module
 */
import { ImportError } from '../../import-error.js';

/** What the fork keeps a line beyond the file's bytes, measured on files of short lines: its row (80 bytes), its strings' keys and slots, its place in the entry index, the chain and the child's runs. */
export const FORK_BYTES_PER_LINE = 512;
/**
 * What the fork holds per byte of the file beyond the line costs, in quarters: the bytes, the
 * scanner's copy and the regions it sizes from them (peak RSS of `dsh fork FILE` measured at 2.2×
 * the file plus 262 bytes a line; docs/decisions/2026-12-07-native-fork-memory-check-every-scan.md).
 */
const FORK_QUARTERS_PER_BYTE = 9;
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

/** What the byte path's fork of a file of `size` bytes and `lines` lines needs: 2¼× the file and `FORK_BYTES_PER_LINE` a line. */
export function forkMemoryNeed(size: number, lines: number): number {
  return Math.ceil((size * FORK_QUARTERS_PER_BYTE) / 4) + lines * FORK_BYTES_PER_LINE;
}

/**
 * `FILE_TOO_LARGE` when the byte path's fork of `bytes` (`lines` lines) would need more than its
 * bound (`forkMemoryNeed`).
 */
export function checkForkMemory(bytes: Uint8Array, lines: number, maxMemoryBytes?: number): void {
  const bound = forkMemoryBound(bytes.length, maxMemoryBytes);
  const need = forkMemoryNeed(bytes.length, lines);
  if (need <= bound) return;
  const limit = maxMemoryBytes === undefined ? "4× the file's size, at least 64 MiB" : 'maxMemoryBytes';
  throw new ImportError(
    'FILE_TOO_LARGE',
    `a native fork of this ${mib(bytes.length)} file of ${String(lines)} lines would need about ${mib(need)} of memory (2¼× the file and ${String(FORK_BYTES_PER_LINE)} bytes a line); expected at most ${mib(bound)} (${limit})`,
  );
}
