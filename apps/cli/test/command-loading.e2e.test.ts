/**
 * What a command loads, through the real bin: `dsh --version` and `dsh --help` load neither the
 * codec's schemas nor the readers, nor the host.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { runDsh, type DshResult } from './run-dsh.js';

const RECORDER = fileURLToPath(new URL('__fixtures__/record-loaded-modules.mjs', import.meta.url));

/** Modules of the host and what only it needs: the store, the agent, PostgreSQL, the HTTP server. */
const HOST = /\/(dsh-host|dsh-session|dsh-agent|dsh-postgres|pg|pg-pool|hono|@hono)\//;
/** The codec's schemas (its main entry and zod) and dsh-import's readers (its main entry). */
const SCHEMAS = /\/(zod\/|dsh-codec\/(src|dist)\/index\.|dsh-import\/(src|dist)\/index\.)/;

let dir: TempDir;
beforeEach(async () => {
  dir = await makeTempDir('dsh-loading-');
});
afterEach(async () => {
  await dir.remove();
});

/** Runs `dsh ARGS`, returning its result and the URLs of every module it loaded. */
async function runRecorded(args: string[]): Promise<DshResult & { loaded: string[] }> {
  const record = join(dir.path, 'loaded.txt');
  await writeFile(record, '');
  const result = await runDsh(args, {
    env: { NODE_OPTIONS: `--import=${RECORDER}`, DSH_RECORD_MODULES: record, DSH_HOME: join(dir.path, 'data') },
  });
  return { ...result, loaded: (await readFile(record, 'utf8')).split('\n').filter((url) => url !== '') };
}

describe('the modules a command loads', () => {
  it('dsh --version and dsh --help load neither the codec schemas nor the readers', async () => {
    for (const args of [['--version'], ['--help'], ['fork', '--help']]) {
      const run = await runRecorded(args);
      expect(run.code, run.stderr).toBe(0);
      expect(
        run.loaded.some((url) => url.includes('/apps/cli/')),
        'the recorder saw the CLI load',
      ).toBe(true);
      expect(
        run.loaded.filter((url) => SCHEMAS.test(url) || HOST.test(url)),
        args.join(' '),
      ).toEqual([]);
    }
  });
});
