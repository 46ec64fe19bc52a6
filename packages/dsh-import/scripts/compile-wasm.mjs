/**
 * Compiles the AssemblyScript scanner (`assembly/claude-code-rows.ts`) to WebAssembly and returns
 * the module's bytes — the one place its compiler flags are written. `build-wasm.mjs` writes them
 * into `src/native/claude-code-bytes/wasm/claude-code-rows-wasm.ts`; a test compiles again and compares.
 * @module
 */
import { Buffer } from 'node:buffer';
import { fileURLToPath, URL } from 'node:url';
import asc from 'assemblyscript/asc';

const SOURCE = fileURLToPath(new URL('../assembly/claude-code-rows.ts', import.meta.url));

/** The flags: optimized, no runtime or assertions, SIMD, the memory given by the caller. */
export const ASC_FLAGS = ['-O3', '--runtime', 'stub', '--noAssert', '--enable', 'simd', '--importMemory'];

/** The module's bytes. */
export async function compileWasm() {
  let binary;
  const { error, stderr } = await asc.main([SOURCE, ...ASC_FLAGS, '--outFile', 'claude-code-rows.wasm'], {
    writeFile(name, contents) {
      if (name.endsWith('.wasm')) binary = contents;
    },
  });
  if (error) throw new Error(`asc failed: ${error.message}\n${stderr.toString()}`);
  if (binary === undefined) throw new Error('asc wrote no .wasm');
  return Buffer.from(binary);
}
