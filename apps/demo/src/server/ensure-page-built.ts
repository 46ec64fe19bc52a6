/**
 * Makes sure the page's production build in `dist/` exists and is newer than its sources, running
 * Vite's build when it is not. A fresh checkout therefore needs no separate build step.
 */
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';

async function newestMtime(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/** The built page's directory; builds it first (with `<appDir>/vite.config.ts`) when missing or stale. */
export async function ensurePageBuilt(appDir: string, log: (line: string) => void = () => undefined): Promise<string> {
  const distDir = join(appDir, 'dist');
  const built = await stat(join(distDir, 'index.html')).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
  const sources = Math.max(await newestMtime(join(appDir, 'src', 'page')), await newestMtime(join(appDir, 'vite.config.ts')));
  if (built !== undefined && built >= sources) return distDir;
  log(built === undefined ? '› building the page (first start)' : '› rebuilding the page (sources changed)');
  const { build } = await import('vite');
  await build({ configFile: join(appDir, 'vite.config.ts'), logLevel: 'warn' });
  return distDir;
}
