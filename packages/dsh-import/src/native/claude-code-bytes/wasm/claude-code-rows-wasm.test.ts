/**
 * The committed WebAssembly scanner is the compile of its source: `claude-code-rows-wasm.ts` is
 * written by `pnpm --filter dsh-import run build:wasm`, and this test fails when someone changed
 * assembly/claude-code-rows.ts (or the compiler flags) without running it.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { compileWasm } from '../../../../scripts/compile-wasm.mjs';
import { CLAUDE_CODE_ROWS_WASM } from './claude-code-rows-wasm.js';

describe('the committed WebAssembly scanner', () => {
  it('is byte for byte what asc makes of assembly/claude-code-rows.ts (run `pnpm --filter dsh-import run build:wasm` when it is not)', async () => {
    const compiled = await compileWasm();
    expect(Buffer.from(CLAUDE_CODE_ROWS_WASM, 'base64').equals(compiled)).toBe(true);
  }, 60_000);
});
