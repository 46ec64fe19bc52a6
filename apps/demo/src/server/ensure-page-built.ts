/**
 * Makes sure the page's production build in `dist/` exists and is newer than every input it was built
 * from (`stalePage`: the page's sources, and what the last build read outside them, such as
 * `dsh-host/commands`), running Vite's build when it is not. A fresh checkout therefore needs no
 * separate build step.
 */
import { join } from 'node:path';
import { stalePage } from './page-inputs.js';

/** The built page's directory; builds it first (with `<appDir>/vite.config.ts`) when missing or stale. */
export async function ensurePageBuilt(appDir: string, log: (line: string) => void = () => undefined): Promise<string> {
  const distDir = join(appDir, 'dist');
  const reason = await stalePage(appDir);
  if (reason === undefined) return distDir;
  log(reason === 'first start' ? '› building the page (first start)' : `› rebuilding the page (${reason})`);
  const { build } = await import('vite');
  await build({ configFile: join(appDir, 'vite.config.ts'), logLevel: 'warn' });
  return distDir;
}
