/**
 * Builds the demo page (src/page) into dist/. Preact's JSX goes through Vite's built-in oxc
 * transform with Preact as the automatic runtime, so no framework plugin is needed. Workspace
 * packages (`dsh-host/commands`) are read from their source through the `@dsh/source` condition, as
 * the server runs them, never from a `dist/` that may be older; the build records what it read
 * (`src/server/page-inputs.ts`), so the server rebuilds the page when any of it changes.
 */
import { fileURLToPath } from 'node:url';
import { defaultClientConditions, defineConfig } from 'vite';
import { recordPageInputs } from './src/server/page-inputs.js';

const here = fileURLToPath(new URL('.', import.meta.url));

export default defineConfig({
  root: `${here}src/page`,
  base: '/',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  resolve: { conditions: ['@dsh/source', ...defaultClientConditions] },
  plugins: [recordPageInputs()],
  build: { outDir: `${here}dist`, emptyOutDir: true },
  logLevel: 'warn',
});
