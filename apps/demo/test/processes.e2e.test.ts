/**
 * `npm run demo` as a person runs it, then stopped the ways people stop it: SIGTERM/SIGINT to npm
 * (or Ctrl-C in its terminal) and `kill -9` of npm. Afterwards no process it started may remain and
 * nothing may serve on its port.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acceptsConnections, commandLineOf, descendantsOf, isRunning, makeTempDir, waitFor, type TempDir } from '@dsh/test-utils';

const REPO_ROOT = fileURLToPath(new URL('../../..', import.meta.url));

let dir: TempDir;
/** Every process a test started (npm and below): killed afterwards even when an assertion failed midway. */
const leftovers: number[] = [];
beforeEach(async () => {
  dir = await makeTempDir('dsh-demo-processes-');
});
afterEach(async () => {
  for (const pid of leftovers.splice(0)) {
    if (isRunning(pid)) process.kill(pid, 'SIGKILL');
  }
  await dir.remove();
});

async function startNpmRunDemo(): Promise<{ npm: ChildProcess; port: number; started: number[] }> {
  const npm = spawn('npm', ['run', 'demo', '--', '--port', '0', '--data', join(dir.path, 'data')], {
    cwd: REPO_ROOT,
    env: { ...process.env, OPENAI_API_KEY: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  npm.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  npm.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  await waitFor(`the demo to print its URL (output: ${output})`, () => /running at http:\/\/127\.0\.0\.1:\d+\//.test(output), 120_000);
  const port = Number((/running at http:\/\/127\.0\.0\.1:(\d+)\//.exec(output) ?? [])[1]);
  const started = descendantsOf(npm.pid as number);
  leftovers.push(npm.pid as number, ...started);
  return { npm, port, started };
}

describe('npm run demo as a process', () => {
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} to npm stops the server: no orphan, the port is closed`, { timeout: 180_000 }, async () => {
      const { npm, port, started } = await startNpmRunDemo();
      // exec all the way down: npm's only node child is the demo server (no sh, pnpm or tsx launcher).
      expect(started.map(commandLineOf).filter((line) => line.startsWith('node')).length).toBe(1);
      expect(started.map(commandLineOf).filter((line) => /^(sh|bash|pnpm) /.test(line))).toEqual([]);
      npm.kill(signal);
      await waitFor('every process npm started to exit', () => started.every((pid) => !isRunning(pid)), 60_000);
      expect(await acceptsConnections(port)).toBe(false);
    });
  }

  it('kill -9 of npm: the server notices its launcher is gone and stops', { timeout: 180_000 }, async () => {
    const { npm, port, started } = await startNpmRunDemo();
    npm.kill('SIGKILL');
    await waitFor('every process npm started to exit', () => started.every((pid) => !isRunning(pid)), 60_000);
    expect(await acceptsConnections(port)).toBe(false);
  });
});
