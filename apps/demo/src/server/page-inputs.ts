/**
 * @module page-inputs
 * What the page's build read, so the server can tell when the built page is stale: a Vite plugin that
 * records every file the bundle was made from (the page, `dsh-host/commands` from its source, Preact)
 * beside the build, and the check that compares their times with the built page's.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { Plugin } from 'vite';

/** Where, under the build's output directory, the recorded inputs are kept (beside Vite's own `.vite/manifest.json`). */
export const PAGE_INPUTS_FILE = join('.vite', 'page-inputs.json');

/** The files a build read (`paths` relative to its output directory). */
type PageInputs = { inputs: string[] };

/** A Vite plugin: after writing the bundle, records every file on disk it was made from in `PAGE_INPUTS_FILE`. */
export function recordPageInputs(): Plugin {
  return {
    name: 'dsh-record-page-inputs',
    apply: 'build',
    async writeBundle(options) {
      const outDir = options.dir;
      if (outDir === undefined) return;
      const files = new Set<string>();
      for (const id of this.getModuleIds()) {
        // Virtual modules start with NUL; a query (`?inline`, …) names a view of the same file.
        const file = id.split('?')[0] ?? '';
        if (!id.startsWith('\0') && isAbsolute(file)) files.add(relative(outDir, file));
      }
      const record: PageInputs = { inputs: [...files].sort() };
      const path = join(outDir, PAGE_INPUTS_FILE);
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, `${JSON.stringify(record, null, 2)}\n`);
    },
  };
}

async function mtimeOf(path: string): Promise<number | undefined> {
  return stat(path).then(
    (info) => info.mtimeMs,
    () => undefined,
  );
}

/** The recorded inputs, or undefined when the file is missing or not such a record (a build from before, an interrupted write). */
async function readRecord(path: string): Promise<PageInputs | undefined> {
  try {
    const record = JSON.parse(await readFile(path, 'utf8')) as Partial<PageInputs> | null;
    return Array.isArray(record?.inputs) && record.inputs.every((input) => typeof input === 'string')
      ? { inputs: record.inputs }
      : undefined;
  } catch {
    return undefined;
  }
}

async function newestMtime(path: string): Promise<number> {
  const info = await stat(path);
  if (!info.isDirectory()) return info.mtimeMs;
  let newest = info.mtimeMs;
  for (const entry of await readdir(path)) newest = Math.max(newest, await newestMtime(join(path, entry)));
  return newest;
}

/**
 * Why the page built into `<appDir>/dist` must be built again, or undefined when it is current: it is
 * missing, it has no record of its inputs, or one of them is gone or newer than it — the files the
 * last build read (wherever they are) and `src/page/` and `vite.config.ts` (which a new import or file changes).
 */
export async function stalePage(appDir: string): Promise<string | undefined> {
  const distDir = join(appDir, 'dist');
  const built = await mtimeOf(join(distDir, 'index.html'));
  if (built === undefined) return 'first start';
  const record = await readRecord(join(distDir, PAGE_INPUTS_FILE));
  if (record === undefined) return 'no record of its inputs';
  const sources = Math.max(await newestMtime(join(appDir, 'src', 'page')), await newestMtime(join(appDir, 'vite.config.ts')));
  if (sources > built) return 'sources changed';
  for (const input of record.inputs) {
    const path = resolve(distDir, input);
    const changed = await mtimeOf(path);
    if (changed === undefined || changed > built) return `${relative(appDir, path)} changed`;
  }
  return undefined;
}
