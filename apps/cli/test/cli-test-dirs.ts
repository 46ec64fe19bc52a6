/**
 * @module cli-test-dirs
 * The prelude the CLI's e2e tests share: a data directory per test (and, when asked, a working
 * directory holding `notes.md`), and the model server a test starts, closed after it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';
import { makeTempDir, type ModelServer, type TempDir } from '@dsh/test-utils';

/** This test's directories, and the model server it started (closed and cleared after it). */
export type CliTestDirs = { readonly data: TempDir; readonly work: TempDir; server: ModelServer | undefined };

/**
 * Registers the hooks: before each test `<prefix>-data-` (and with `work`, `<prefix>-work-` holding
 * `notes.md`) is made; after it the server is closed and the directories removed.
 */
export function useCliTestDirs(prefix: string, options: { work?: boolean } = {}): CliTestDirs {
  let data: TempDir | undefined;
  let work: TempDir | undefined;
  const dirs = {
    server: undefined as ModelServer | undefined,
    get data(): TempDir {
      if (data === undefined) throw new Error('useCliTestDirs: the data directory exists only during a test.');
      return data;
    },
    get work(): TempDir {
      if (work === undefined) throw new Error('useCliTestDirs: a work directory exists only during a test, and only with { work: true }.');
      return work;
    },
  };
  beforeEach(async () => {
    data = await makeTempDir(`${prefix}-data-`);
    if (options.work === true) {
      work = await makeTempDir(`${prefix}-work-`);
      await writeFile(join(work.path, 'notes.md'), 'remember the milk\n');
    }
  });
  afterEach(async () => {
    await dirs.server?.close();
    dirs.server = undefined;
    await data?.remove();
    await work?.remove();
    data = undefined;
    work = undefined;
  });
  return dirs;
}
