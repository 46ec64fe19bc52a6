/**
 * `scanClaudeCodeRows`: every line of a Claude Code file read into a `ClaudeCodeLineTable` by the
 * WebAssembly scanner (`assembly/claude-code-rows.ts`) — the rows and blocks stay in the module's
 * memory, which the table reads in place. The lines the scanner declines are listed for the
 * caller, who parses them (`ScannedRows.declined`). One module instance and memory per file.
 * @module
 */
import { Buffer } from 'node:buffer';
import { BLOCK, ClaudeCodeLineTable, ROW } from './claude-code-line-table.js';
import { CLAUDE_CODE_ROWS_WASM } from './wasm/claude-code-rows-wasm.js';
import { WasmStringTable } from './wasm-string-table.js';
import { patchPairs } from './patch-pairs.js';
import { firstNativeLines } from '../first-native-lines.js';
import { detectFormat } from '../../detect-format.js';
import { checkForkMemory, lineCount } from './fork-memory-bound.js';

/** The scanner's exports (see assembly/claude-code-rows.ts). */
type Scanner = {
  configure(...regions: number[]): void;
  longest(): number;
  scan(limit: number): number;
  rows(): number;
  blocks(): number;
  keys(): number;
  watched(): number;
  declined(): number;
  keyOfExtra(length: number, insert: number): number;
  patchWatched(pattern: number, replacement: number, length: number, limit: number): number;
};

/** The table of a scanned file, the rows it declined and where `"sessionId"` ends a key in the rows it read. */
export type ScannedRows = {
  table: ClaudeCodeLineTable<WasmStringTable>;
  /** Row numbers, ascending: rows holding only their line's place (LINE_INDEX, LINE_START, LINE_END). */
  declined: Int32Array;
  /** File offsets, ascending, in the lines read (not the declined ones). */
  sessionIdKeys: Int32Array;
  /** The file's bytes in the scanner's memory and the zeros after them: the caller may write over them (the rows are elsewhere). */
  input: Buffer;
  /**
   * Writes `replacement` over each `pattern` (as long) in `input` that starts at a `"sessionId"` key
   * of the lines read (`sessionIdKeys`) before `limit` — in the module, one pass over the keys.
   */
  patchSessionIds(pattern: Uint8Array, replacement: Uint8Array, limit: number): void;
};

const PAGE = 65536;
const FULL = 1;
/** Zeros after the input: the scanner's 16-byte loads stop on them. */
const PADDING = 64;
/** Where a string asked for is written to be looked up (a longer one is compared in JavaScript). */
const SCRATCH = 65536;

/** The parts of the WebAssembly API used here (the Node types declare none). */
type WasmModule = { readonly kind: 'module' };
type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
type WasmApi = {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
};
/** Undefined where WebAssembly is not there (`node --jitless`). */
const wasmApi = (globalThis as unknown as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | undefined;

function scannerModule(api: WasmApi): WasmModule {
  compiled ??= new api.Module(Buffer.from(CLAUDE_CODE_ROWS_WASM, 'base64'));
  return compiled;
}

const align = (at: number): number => Math.ceil(at / 16) * 16;

/**
 * Where each region of the scanner's memory starts for an input of `n` bytes, and how many entries
 * it holds: rows, blocks and keys guessed from the bytes (a Claude Code line is a kilobyte or more), all of
 * them `factor` times larger when a scan found one too small.
 */
function layoutOf(n: number, factor: number) {
  const stackAt = align(n + PADDING);
  const rowsAt = stackAt + 1024;
  const rowsCap = factor * (Math.ceil(n / 128) + 1024);
  const blocksAt = align(rowsAt + rowsCap * ROW * 4);
  const blocksCap = factor * (Math.ceil(n / 128) + 1024);
  const infoAt = align(blocksAt + blocksCap * BLOCK * 4);
  const keysCap = factor * (Math.ceil(n / 128) + 4096);
  const slotsAt = align(infoAt + keysCap * 16);
  const slotsCap = 2 ** Math.ceil(Math.log2(keysCap * 2));
  const watchedAt = align(slotsAt + slotsCap * 8);
  const watchedCap = factor * (Math.ceil(n / 128) + 1024);
  const declinedAt = align(watchedAt + watchedCap * 4);
  const arenaAt = align(declinedAt + rowsCap * 4);
  const arenaCap = factor * (Math.ceil(n / 16) + PAGE);
  const scratchAt = align(arenaAt + arenaCap);
  const pages = Math.ceil((scratchAt + SCRATCH + PADDING) / PAGE);
  // prettier-ignore
  const regions = [n, stackAt, rowsAt, rowsCap, blocksAt, blocksCap, infoAt, keysCap, slotsAt, slotsCap, watchedAt, watchedCap, declinedAt, arenaAt, arenaCap, scratchAt];
  return { regions, rowsAt, rowsCap, blocksAt, blocksCap, infoAt, keysCap, watchedAt, declinedAt, scratchAt, pages };
}

function newScan(api: WasmApi, memory: WasmMemory, n: number, factor: number): Scanner {
  const scanner = new api.Instance(scannerModule(api), { env: { memory } }).exports as unknown as Scanner;
  scanner.configure(...layoutOf(n, factor).regions);
  return scanner;
}

/**
 * A scan set up on a fresh memory for a file of `size` bytes before the file is read: the file is
 * read into `bytes` (the start of that memory), `read` lets the scanner read the whole lines already
 * there while the rest is read, and `scanClaudeCodeRows(bytes, this)` finishes it where it is. Held
 * by the one value that reads the file (`nativeFileReader`): nothing else can find it.
 */
export class ScanInPlace {
  /** The memory's first `size` bytes: where the file is read. */
  readonly bytes: Uint8Array;
  readonly #memory: WasmMemory;
  #scanner: Scanner | undefined;
  #scanned = 0;

  private constructor(memory: WasmMemory, scanner: Scanner, size: number) {
    this.#memory = memory;
    this.#scanner = scanner;
    this.bytes = new Uint8Array(memory.buffer, 0, size);
  }

  /** A scan for `size` bytes, or undefined where WebAssembly is not there (or past its memory). */
  static start(size: number): ScanInPlace | undefined {
    if (wasmApi === undefined) return undefined;
    const memory = newMemory(wasmApi, layoutOf(size, 1).pages);
    return memory === undefined ? undefined : new ScanInPlace(memory, newScan(wasmApi, memory, size, 1), size);
  }

  /**
   * Says that the first `length` bytes are read (and will not change): the scanner reads their whole
   * lines now. A file whose first lines say Codex or pi is not scanned (its fork takes the text path).
   */
  read(length: number): void {
    // Never past the buffer, whatever the caller says.
    const read = Math.min(length, this.bytes.length);
    if (this.#scanner === undefined || read <= this.#scanned) return;
    const view = Buffer.from(this.#memory.buffer, 0, read);
    const limit = view.lastIndexOf(10, read - 1) + 1;
    if (limit <= this.#scanned) return;
    if ((this.#scanned === 0 && isOtherFormat(view, limit)) || scanOrTrap(this.#scanner, limit) === TRAPPED) this.#scanner = undefined;
    this.#scanned = limit;
  }

  /** The scanner, once, for exactly this scan's whole `bytes`; undefined for other bytes, a second time or after a trap. */
  take(bytes: Uint8Array): { memory: WasmMemory; scanner: Scanner } | undefined {
    const scanner = this.#scanner;
    if (scanner === undefined || bytes.buffer !== this.bytes.buffer || bytes.byteOffset !== 0 || bytes.length !== this.bytes.length)
      return undefined;
    this.#scanner = undefined;
    return { memory: this.#memory, scanner };
  }
}

/** Whether the complete lines in `bytes[0, limit)` (up to 20) are a Codex rollout's or a pi session's start. */
function isOtherFormat(bytes: Buffer, limit: number): boolean {
  const lines = firstNativeLines(bytes, limit);
  if (lines === undefined) return false;
  const format = detectFormat(lines.map((line) => ({ line: line.index + 1, value: line.value })));
  return format === 'codex' || format === 'pi';
}

/** Returned by `scanOrTrap` for a scan that trapped. */
const TRAPPED = -1;

/**
 * `scanner.scan(limit)`, or TRAPPED if the module trapped (it should not: every load stays in the
 * input's padding) — then the fork takes the text path, rather than failing.
 */
function scanOrTrap(scanner: Scanner, limit: number): number {
  try {
    return scanner.scan(limit);
  } catch {
    return TRAPPED;
  }
}

function newMemory(api: WasmApi, pages: number): WasmMemory | undefined {
  try {
    return new api.Memory({ initial: pages });
  } catch {
    // Past what the engine gives one memory (4 GiB): the fork takes the text path.
    return undefined;
  }
}

/**
 * The file's rows, or undefined where WebAssembly is not there (or the file is too large for its
 * memory). `inPlace`: the scan `bytes` were read into, finished where they are; other bytes are
 * copied into a fresh memory first. When the rows do not fit the first guess, the lines are counted:
 * `FILE_TOO_LARGE` past the fork's memory bound (`maxMemoryBytes`, see `fork-memory-bound.ts`), else
 * one larger memory that holds them (not one per doubling); a scan that fit is checked against the
 * bound by its rows.
 */
export function scanClaudeCodeRows(bytes: Uint8Array, inPlace?: ScanInPlace, maxMemoryBytes?: number): ScannedRows | undefined {
  if (wasmApi === undefined) return undefined;
  const n = bytes.length;
  let lines: number | undefined;
  /** The factor of the next scan after one at `factor` was FULL. */
  const larger = (factor: number): number => {
    if (lines === undefined) {
      lines = lineCount(bytes);
      checkForkMemory(bytes, lines, maxMemoryBytes);
    }
    let next = factor * 2;
    while (layoutOf(n, next).rowsCap <= lines) next *= 2;
    return next;
  };
  // A scan that fit: its rows are the lines, checked against the bound before the fork makes memory per line.
  const fitted = (scanner: Scanner): void => {
    if (lines === undefined) checkForkMemory(bytes, scanner.rows(), maxMemoryBytes);
  };
  const started = inPlace?.take(bytes);
  let factor = 1;
  if (started !== undefined) {
    const status = scanOrTrap(started.scanner, n);
    if (status === TRAPPED) return undefined;
    if (status !== FULL) {
      fitted(started.scanner);
      return scanned(started.memory.buffer, started.scanner, layoutOf(n, 1));
    }
    factor = larger(1);
  }
  for (; ; factor = larger(factor)) {
    const layout = layoutOf(n, factor);
    // A fresh memory is all zeros: the padding, the key slots and the recent tokens need no clearing.
    const memory = newMemory(wasmApi, layout.pages);
    if (memory === undefined) return undefined;
    new Uint8Array(memory.buffer).set(bytes);
    const scanner = newScan(wasmApi, memory, n, factor);
    const status = scanOrTrap(scanner, n);
    if (status === TRAPPED) return undefined;
    if (status === FULL) continue;
    fitted(scanner);
    return scanned(memory.buffer, scanner, layout);
  }
}

function scanned(buffer: ArrayBuffer, scanner: Scanner, layout: ReturnType<typeof layoutOf>): ScannedRows {
  const memory = Buffer.from(buffer);
  const { infoAt, keysCap, scratchAt } = layout;
  const count = scanner.keys();
  const longest = scanner.longest();
  const strings = new WasmStringTable({
    memory,
    infoAt,
    count,
    capacity: keysCap,
    find: (string, length) => {
      if (length > longest) return -1;
      if (length <= SCRATCH) {
        memory.write(string, scratchAt, 'utf8');
        return scanner.keyOfExtra(length, 0);
      }
      // Longer than the scratch: compared with each key of that length.
      const encoded = Buffer.from(string, 'utf8');
      for (let key = 0; key < count; key++) {
        const start = memory.readInt32LE(infoAt + key * 16 + 4);
        if (memory.readInt32LE(infoAt + key * 16 + 8) === length && encoded.equals(memory.subarray(start, start + length))) return key;
      }
      return -1;
    },
  });
  const table = new ClaudeCodeLineTable(
    strings,
    new Int32Array(buffer, layout.rowsAt, layout.rowsCap * ROW),
    new Int32Array(buffer, layout.blocksAt, layout.blocksCap * BLOCK),
    scanner.rows(),
    scanner.blocks(),
  );
  const sessionIdKeys = new Int32Array(buffer, layout.watchedAt, scanner.watched());
  const input = memory.subarray(0, layout.regions[1]);
  return {
    table,
    declined: new Int32Array(buffer, layout.declinedAt, scanner.declined()),
    sessionIdKeys,
    input,
    patchSessionIds(pattern, replacement, limit) {
      if (replacement.length !== pattern.length) throw new RangeError('a session id pair is replaced by one as long');
      if (pattern.length * 2 <= SCRATCH) {
        memory.set(pattern, scratchAt);
        memory.set(replacement, scratchAt + pattern.length);
        scanner.patchWatched(scratchAt, scratchAt + pattern.length, pattern.length, limit);
      } else patchPairs(input, sessionIdKeys, pattern, replacement, limit);
    },
  };
}
