/**
 * `patchPairs`: a native fork's session id pairs replaced where they stand in a file's bytes, in
 * JavaScript — for the places the WebAssembly scanner did not list itself (the lines it declined,
 * which are searched as text) or a pair too long for its scratch memory.
 * @module
 */
import type { Buffer } from 'node:buffer';

/**
 * Writes `replacement` (as long as `pattern`) over each `pattern` in `bytes` that starts at one of
 * `places` (ascending) before `limit`; a place inside a pair just replaced is skipped (none overlap).
 */
export function patchPairs(bytes: Buffer, places: ArrayLike<number>, pattern: Uint8Array, replacement: Uint8Array, limit: number): void {
  const length = pattern.length;
  let free = 0;
  for (let p = 0; p < places.length; p++) {
    const at = places[p] as number;
    if (at >= limit) break;
    if (at < free || at + length > bytes.length || bytes.compare(pattern, 0, length, at, at + length) !== 0) continue;
    bytes.set(replacement, at);
    free = at + length;
  }
}
