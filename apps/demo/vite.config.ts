/**
 * Builds the demo page (src/page) into dist/. Preact's JSX goes through Vite's built-in oxc
 * transform with Preact as the automatic runtime, so no framework plugin is needed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${here}src/page`,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: { outDir: `${here}dist`, emptyOutDir: true },
  logLevel: 'warn',
});
