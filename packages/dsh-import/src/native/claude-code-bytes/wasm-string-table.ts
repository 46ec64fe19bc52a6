/**
 * `WasmStringTable`: the `LineStrings` of a file the WebAssembly scanner read — its keys are the
 * scanner's (strings interned by their decoded bytes in the module's memory), and a string asked
 * for that no token of the file holds gets a key of its own past them, kept here. A string is
 * made from a key's bytes only when it is asked for.
 * @module
 */
import { Buffer } from 'node:buffer';
import type { LineStrings } from './line-strings.js';

// A lone surrogate has no UTF-8 form: no token the scanner keyed can equal such a string.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** What the table reads of the module. */
export type WasmStrings = {
  /** The module's memory. */
  memory: Buffer;
  /** Where the keys' `[hash, start, length, 0]` quadruples start. */
  infoAt: number;
  /** How many keys the scanner made, and how many it had room for (the keys past them are this table's own). */
  count: number;
  capacity: number;
  /** The key of `string` (its UTF-8 is `length` bytes; no lone surrogate), or -1. */
  find(string: string, length: number): number;
};

/** The keyed strings of one scanned file. */
export class WasmStringTable implements LineStrings {
  readonly #wasm: WasmStrings;
  readonly #strings: (string | undefined)[] = [];
  readonly #own = new Map<string, number>();
  readonly #ownStrings: string[] = [];

  constructor(wasm: WasmStrings) {
    this.#wasm = wasm;
  }

  get size(): number {
    return this.#ownStrings.length > 0 ? this.#wasm.capacity + this.#ownStrings.length : this.#wasm.count;
  }

  find(string: string): number {
    const own = this.#own.get(string);
    if (own !== undefined) return own;
    if (LONE_SURROGATE.test(string)) return -1;
    return this.#wasm.find(string, Buffer.byteLength(string, 'utf8'));
  }

  keyOf(string: string): number {
    const found = this.find(string);
    if (found >= 0) return found;
    const key = this.#wasm.capacity + this.#ownStrings.length;
    this.#own.set(string, key);
    this.#ownStrings.push(string);
    return key;
  }

  string(key: number): string {
    const wasm = this.#wasm;
    if (key >= wasm.capacity) return this.#ownStrings[key - wasm.capacity] as string;
    let string = this.#strings[key];
    if (string === undefined) {
      const start = wasm.memory.readInt32LE(wasm.infoAt + key * 16 + 4);
      const length = wasm.memory.readInt32LE(wasm.infoAt + key * 16 + 8);
      string = wasm.memory.toString('utf8', start, start + length);
      this.#strings[key] = string;
    }
    return string;
  }
}
