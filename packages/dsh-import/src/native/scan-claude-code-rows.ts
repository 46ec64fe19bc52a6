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

/** The scanner's exports (see assembly/claude-code-rows.ts). */
type Scanner = {
  configure(...regions: number[]): void;
  countLines(): number;
  scan(): number;
  rows(): number;
  blocks(): number;
  keys(): number;
  watched(): number;
  declined(): number;
  keyOfExtra(length: number, insert: number): number;
};

/** The table of a scanned file, the rows it declined and where `"sessionId"` ends a key in the rows it read. */
export type ScannedRows = {
  table: ClaudeCodeLineTable<WasmStringTable>;
  /** Row numbers, ascending: rows holding only their line's place (LINE_INDEX, LINE_START, LINE_END). */
  declined: Int32Array;
  /** File offsets, ascending, in the lines read (not the declined ones). */
  sessionIdKeys: Int32Array;
};

const PAGE = 65536;
const FULL = 1;
/** Zeros after the input: the scanner's 16-byte loads stop on them. */
const PADDING = 64;

/** The parts of the WebAssembly API used here (the Node types declare none). */
type WasmModule = { readonly kind: 'module' };
type WasmMemory = { readonly buffer: ArrayBuffer; grow(pages: number): number };
type WasmApi = {
  Module: new (bytes: Uint8Array) => WasmModule;
  Memory: new (descriptor: { initial: number }) => WasmMemory;
  Instance: new (module: WasmModule, imports: object) => { exports: object };
};
/** Undefined where WebAssembly is not there (`node --jitless`). */
const wasmApi = (globalThis as { WebAssembly?: WasmApi }).WebAssembly;

let compiled: WasmModule | undefined;

function scannerModule(api: WasmApi): WasmModule {
  compiled ??= new api.Module(Buffer.from(CLAUDE_CODE_ROWS_WASM, 'base64'));
  return compiled;
}

const align = (at: number): number => Math.ceil(at / 16) * 16;

/** The file's rows, or undefined where WebAssembly is not there. */
export function scanClaudeCodeRows(bytes: Uint8Array): ScannedRows | undefined {
  if (wasmApi === undefined) return undefined;
  const module = scannerModule(wasmApi);
  const n = bytes.length;
  const inputEnd = align(n + PADDING);
  const memory = new wasmApi.Memory({ initial: Math.ceil((inputEnd + 1024) / PAGE) });
  new Uint8Array(memory.buffer).set(bytes);
  const scanner = new wasmApi.Instance(module, { env: { memory } }).exports as unknown as Scanner;
  scanner.configure(n, 0, 0, 0, 0, 0, 0, 0, inputEnd, 1, 0, 0, 0, 0, 0, 0);
  const lines = scanner.countLines() + 1;
  for (let factor = 1; ; factor *= 2) {
    // Rows and declined rows: at most one per line. The rest are guesses, doubled when one is too small.
    const stackAt = inputEnd;
    const rowsAt = align(stackAt + 1024);
    const blocksAt = align(rowsAt + lines * ROW * 4);
    const blocksCap = factor * (lines * 2 + 256);
    const infoAt = align(blocksAt + blocksCap * BLOCK * 4);
    const keysCap = factor * (lines * 4 + 4096);
    const slotsAt = align(infoAt + keysCap * 16);
    const slotsCap = 2 ** Math.ceil(Math.log2(keysCap * 2));
    const watchedAt = align(slotsAt + slotsCap * 4);
    const watchedCap = factor * (lines + 256);
    const declinedAt = align(watchedAt + watchedCap * 4);
    const arenaAt = align(declinedAt + lines * 4);
    const arenaCap = factor * (Math.ceil(n / 16) + PAGE);
    const scratchAt = align(arenaAt + arenaCap);
    // A string asked for is looked up at `scratchAt`: none the file holds is longer than the file.
    const scratchCap = n + PADDING;
    const end = scratchAt + scratchCap + PADDING;
    const pages = Math.ceil(end / PAGE) - memory.buffer.byteLength / PAGE;
    if (pages > 0) memory.grow(pages);
    // prettier-ignore
    scanner.configure(n, stackAt, rowsAt, lines, blocksAt, blocksCap, infoAt, keysCap, slotsAt, slotsCap, watchedAt, watchedCap, declinedAt, arenaAt, arenaCap, scratchAt);
    if (scanner.scan() === FULL) continue;
    const buffer = memory.buffer;
    const strings = new WasmStringTable({
      memory: Buffer.from(buffer),
      infoAt,
      count: scanner.keys(),
      capacity: keysCap,
      scratchAt,
      scratchCapacity: scratchCap,
      find: (length) => scanner.keyOfExtra(length, 0),
    });
    const table = new ClaudeCodeLineTable(
      strings,
      new Int32Array(buffer, rowsAt, lines * ROW),
      new Int32Array(buffer, blocksAt, blocksCap * BLOCK),
      scanner.rows(),
      scanner.blocks(),
    );
    return {
      table,
      declined: new Int32Array(buffer, declinedAt, scanner.declined()),
      sessionIdKeys: new Int32Array(buffer, watchedAt, scanner.watched()),
    };
  }
}
