/**
 * `dsh-host/core` is the main entry without the HTTP face and transcript import: the same names but
 * those, and loading it loads neither hono nor dsh-import's readers (a CLI command that forks or lists
 * starts in fewer modules). Counted in a real Node process that records every module it loads.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import * as core from 'dsh-host/core';
import * as main from 'dsh-host';

/** The value exports of the main entry that `dsh-host/core` leaves out: the HTTP face and the import. */
const LEFT_OUT = ['INTERNAL_ERROR_BODY', 'checkRequest', 'createHttpApp', 'httpGuard', 'importIntoStore', 'openApiDocument', 'serveHost'];
/** Modules of the HTTP face and of dsh-import's readers (its main entry and the import pipeline). */
const HEAVY = /\/(hono|@hono)\/|\/dsh-import\/(src|dist)\/(index|import-transcript|build-sessions)\.|\/dsh-host\/(src|dist)\/http\//;

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('dsh-host-core-');
});
afterEach(async () => {
  await dir.remove();
});

/** The URLs of every module a fresh Node process loads to import `entry` (from the sources, as the tests read them). */
async function modulesLoadedBy(entry: string): Promise<string[]> {
  const record = join(dir.path, 'loaded.txt');
  const hooks = join(dir.path, 'hooks.mjs');
  const recorder = join(dir.path, 'recorder.mjs');
  await writeFile(record, '');
  await writeFile(
    hooks,
    `import { appendFileSync } from 'node:fs';\nexport async function load(url, context, next) {\n  appendFileSync(${JSON.stringify(record)}, url + '\\n');\n  return next(url, context);\n}\n`,
  );
  await writeFile(recorder, `import { register } from 'node:module';\nregister(${JSON.stringify(`file://${hooks}`)});\n`);
  await promisify(execFile)(
    process.execPath,
    [
      '--conditions=@dsh/source',
      '--import',
      import.meta.resolve('tsx'),
      '--import',
      `file://${recorder}`,
      '--input-type=module',
      '-e',
      `await import(${JSON.stringify(entry)});`,
    ],
    { cwd: import.meta.dirname },
  );
  return (await readFile(record, 'utf8')).split('\n').filter((url) => url !== '');
}

describe('the dsh-host/core entry', () => {
  it('exports every value of the main entry but the HTTP face and importIntoStore, each the same binding', () => {
    const expected = Object.keys(main)
      .filter((name) => !LEFT_OUT.includes(name))
      .sort();
    expect(Object.keys(core).sort()).toEqual(expected);
    for (const name of expected) expect(core[name as keyof typeof core], name).toBe(main[name as keyof typeof main]);
    for (const name of LEFT_OUT) expect(Object.keys(main), name).toContain(name);
  });

  it('loads neither hono, the host HTTP modules nor dsh-import’s readers, which the main entry loads', async () => {
    const coreModules = await modulesLoadedBy('dsh-host/core');
    expect(
      coreModules.some((url) => url.includes('/dsh-host/src/create-host.')),
      'the recorder saw the host load',
    ).toBe(true);
    expect(coreModules.filter((url) => HEAVY.test(url))).toEqual([]);
    const mainModules = await modulesLoadedBy('dsh-host');
    expect(mainModules.filter((url) => HEAVY.test(url)).length).toBeGreaterThan(10);
    expect(coreModules.length).toBeLessThan(mainModules.length - 50);
  }, 60_000);
});
