/** The built page is rebuilt when any input its build read is newer, inside `src/page/` or outside it. */
import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { ensurePageBuilt } from './ensure-page-built.js';
import { PAGE_INPUTS_FILE } from './page-inputs.js';

const PAGE_INPUTS_MODULE = fileURLToPath(new URL('./page-inputs.ts', import.meta.url));
const DEMO_DIR = fileURLToPath(new URL('../..', import.meta.url));

const dirs: TempDir[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await dir.remove();
});

/** A page app in a temp dir whose bundle imports `lib/word.ts`, a file outside its `src/page/`; every file dated `past`. */
async function pageApp(past: Date): Promise<{ appDir: string; word: string }> {
  const dir = await makeTempDir('dsh-page-build-');
  dirs.push(dir);
  const appDir = join(dir.path, 'app');
  const word = join(dir.path, 'lib', 'word.ts');
  await mkdir(join(appDir, 'src', 'page'), { recursive: true });
  await mkdir(join(dir.path, 'lib'));
  const files: [string, string][] = [
    [join(dir.path, 'package.json'), '{ "type": "module" }\n'],
    [word, "export const word = 'one';\n"],
    [join(appDir, 'src', 'page', 'main.ts'), "import { word } from '../../../lib/word.ts';\ndocument.title = word;\n"],
    [
      join(appDir, 'src', 'page', 'index.html'),
      '<!doctype html><html><head><script type="module" src="./main.ts"></script></head></html>\n',
    ],
    [
      join(appDir, 'vite.config.ts'),
      `import { recordPageInputs } from ${JSON.stringify(PAGE_INPUTS_MODULE)};\n` +
        `export default { root: ${JSON.stringify(join(appDir, 'src', 'page'))}, plugins: [recordPageInputs()], ` +
        `build: { outDir: ${JSON.stringify(join(appDir, 'dist'))}, emptyOutDir: true }, logLevel: 'warn' };\n`,
    ],
  ];
  for (const [path, text] of files) {
    await writeFile(path, text);
    await utimes(path, past, past);
  }
  for (const folder of [join(appDir, 'src', 'page'), join(appDir, 'src'), join(dir.path, 'lib')]) await utimes(folder, past, past);
  return { appDir, word };
}

async function builtScript(appDir: string): Promise<string> {
  const html = await readFile(join(appDir, 'dist', 'index.html'), 'utf8');
  const src = /src="\/?([^"]+\.js)"/.exec(html)?.[1];
  return readFile(join(appDir, 'dist', src ?? 'missing.js'), 'utf8');
}

describe('ensurePageBuilt', () => {
  test('rebuilds when a file the build read outside src/page is newer than the built page, and only then', async () => {
    const now = Date.now();
    const { appDir, word } = await pageApp(new Date(now - 120_000));
    const lines: string[] = [];
    const log = (line: string) => lines.push(line);
    await ensurePageBuilt(appDir, log);
    expect(lines).toEqual(['› building the page (first start)']);
    // The built page predates nothing it read: no rebuild.
    const built = new Date(now - 60_000);
    await utimes(join(appDir, 'dist', 'index.html'), built, built);
    await ensurePageBuilt(appDir, log);
    expect(lines).toHaveLength(1);

    await writeFile(word, "export const word = 'two';\n");
    await utimes(word, new Date(now - 30_000), new Date(now - 30_000));
    await ensurePageBuilt(appDir, log);
    expect(lines[1]).toBe('› rebuilding the page (../lib/word.ts changed)');
    expect(await builtScript(appDir)).toContain('two');
    await ensurePageBuilt(appDir, log);
    expect(lines).toHaveLength(2);
  });

  test('rebuilds when a page source is newer, or the build left no record of its inputs', async () => {
    const now = Date.now();
    const { appDir } = await pageApp(new Date(now - 120_000));
    const lines: string[] = [];
    await ensurePageBuilt(appDir, (line) => lines.push(line));
    const built = new Date(now - 60_000);
    await utimes(join(appDir, 'dist', 'index.html'), built, built);
    await utimes(join(appDir, 'src', 'page', 'main.ts'), new Date(now - 30_000), new Date(now - 30_000));
    await ensurePageBuilt(appDir, (line) => lines.push(line));
    expect(lines[1]).toBe('› rebuilding the page (sources changed)');

    await rm(join(appDir, 'dist', PAGE_INPUTS_FILE));
    await utimes(join(appDir, 'dist', 'index.html'), new Date(), new Date());
    await ensurePageBuilt(appDir, (line) => lines.push(line));
    expect(lines[2]).toBe('› rebuilding the page (no record of its inputs)');
  });

  test("the demo's page reads dsh-host/commands from its source, and its build records it", async () => {
    const dir = await makeTempDir('dsh-page-build-');
    dirs.push(dir);
    const { build } = await import('vite');
    await build({ configFile: join(DEMO_DIR, 'vite.config.ts'), logLevel: 'silent', build: { outDir: dir.path, emptyOutDir: true } });
    const { inputs } = JSON.parse(await readFile(join(dir.path, PAGE_INPUTS_FILE), 'utf8')) as { inputs: string[] };
    const read = inputs.map((input) => join(dir.path, input));
    expect(read).toContain(fileURLToPath(new URL('../../../../packages/dsh-host/src/commands/parse-slash-command.ts', import.meta.url)));
    expect(read.some((path) => path.includes('/dsh-host/dist/'))).toBe(false);
  });
});
