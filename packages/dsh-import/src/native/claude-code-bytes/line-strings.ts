/**
 * `LineStrings`: what the line table (`claude-code-line-table.ts`) asks of a file's string table —
 * the WebAssembly scanner's (`WasmStringTable`), or a test's table of skeletons already read.
 * @module
 */

/** A file's strings as keys (`WasmStringTable` for a scanned file). */
export interface LineStrings {
  /** How many keys there are (keys are 0 … size - 1). */
  readonly size: number;
  /** The key of `string` (a new one if the table has none). */
  keyOf(string: string): number;
  /** The key of `string`, or -1. */
  find(string: string): number;
  /** The string of `key`. */
  string(key: number): string;
}
