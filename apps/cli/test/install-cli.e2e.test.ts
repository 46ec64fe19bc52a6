/**
 * SPEC §25 — `dsh` on a machine with Node and npm only: `npm run install-cli` (the README's way) builds
 * and packs dsh-cli with its workspace packages and installs the tarballs globally (here into a temp
 * `--prefix`), no registry holding dsh; and every way the README shows runs `dsh` in the directory it
 * was called from: the installed `dsh`, `npm run dsh` and `pnpm dsh` (INIT_CWD), never the checkout.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

const run = promisify(execFile);
const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const env = {
  ...process.env,
  DSH_HOME: undefined,
  NODE_OPTIONS: undefined,
  ANTHROPIC_API_KEY: undefined,
  OPENAI_API_KEY: undefined,
  npm_config_loglevel: 'error',
};

let work: TempDir;
let prefix: string;
let project: string;
beforeAll(async () => {
  work = await makeTempDir('dsh-install-cli-');
  prefix = join(work.path, 'global');
  project = join(work.path, 'project');
  await mkdir(project);
  await run('npm', ['run', 'install-cli', '--', '--prefix', prefix], { cwd: REPO_ROOT, env, maxBuffer: 64 * 1024 * 1024 });
}, 900_000);
afterAll(async () => {
  await work.remove();
});

type Result = { session_id: string; is_error: boolean };

/** The cwd the session `id` recorded, as `dsh show --json` prints it from `data`. */
async function recordedCwd(dsh: string[], id: string, data: string): Promise<unknown> {
  const [command = '', ...args] = dsh;
  const shown = await run(command, [...args, 'show', id, '--json', '--data', data], { cwd: project, env });
  return (JSON.parse(shown.stdout) as { cwd?: unknown }).cwd;
}

describe('npm run install-cli puts dsh on PATH from the clone (SPEC §25)', () => {
  it(
    'installs bin/dsh into the prefix; it runs from built JavaScript in the directory it is called from',
    { timeout: 180_000 },
    async () => {
      const dsh = join(prefix, 'bin', 'dsh');
      expect(existsSync(dsh)).toBe(true);
      expect(existsSync(join(prefix, 'lib', 'node_modules', 'dsh-cli', 'src'))).toBe(false);
      const printed = await run(dsh, ['-p', 'hello', '--output-format', 'json', '--data', 'sessions'], { cwd: project, env });
      const result = JSON.parse(printed.stdout) as Result;
      expect(result.is_error).toBe(false);
      expect(await readdir(project)).toEqual(['sessions']);
      expect(await recordedCwd([dsh], result.session_id, 'sessions')).toBe(project);
    },
  );

  it('npm run dsh and pnpm dsh run in the caller’s directory, not in the checkout', { timeout: 180_000 }, async () => {
    const viaNpm = await run(
      'npm',
      ['--prefix', REPO_ROOT, 'run', '--silent', 'dsh', '--', '-p', 'hi', '--output-format', 'json', '--data', 'npm-data'],
      {
        cwd: project,
        env,
      },
    );
    const npmResult = JSON.parse(viaNpm.stdout) as Result;
    expect(existsSync(join(project, 'npm-data'))).toBe(true);
    expect(existsSync(join(REPO_ROOT, 'npm-data'))).toBe(false);
    const viaPnpm = await run(
      'pnpm',
      ['--dir', REPO_ROOT, '--silent', 'dsh', '-p', 'hi', '--output-format', 'json', '--data', 'pnpm-data'],
      {
        cwd: project,
        env,
      },
    );
    const pnpmResult = JSON.parse(viaPnpm.stdout) as Result;
    expect(existsSync(join(project, 'pnpm-data'))).toBe(true);
    expect(existsSync(join(REPO_ROOT, 'pnpm-data'))).toBe(false);
    const dsh = join(prefix, 'bin', 'dsh');
    expect(await recordedCwd([dsh], npmResult.session_id, 'npm-data')).toBe(project);
    expect(await recordedCwd([dsh], pnpmResult.session_id, 'pnpm-data')).toBe(project);
  });
});
