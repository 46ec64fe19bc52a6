/**
 * SIGKILL of a real `dsh` run at a chosen moment, for the CLI's fault trials: the bin started in its own
 * process group (so what it spawned — git, a child process — dies with it), `when` awaited, the group
 * killed. Tolerates the run having finished first.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { DSH_BIN } from '@dsh/test-utils';

/** Runs `dsh ARGS`, waits for `when` (handed the exit), SIGKILLs the group; true when the kill cut the run short (exit not 0). */
export async function killDsh(
  args: readonly string[],
  when: (exited: Promise<number | null>) => Promise<unknown>,
  env?: NodeJS.ProcessEnv,
): Promise<boolean> {
  const child = spawn(process.execPath, [DSH_BIN, ...args], { detached: true, stdio: 'ignore', ...(env === undefined ? {} : { env }) });
  const exited = new Promise<number | null>((resolve) => {
    child.once('exit', (code) => {
      resolve(code);
    });
  });
  await when(exited);
  let killed = true;
  try {
    process.kill(-(child.pid as number), 'SIGKILL');
  } catch {
    killed = false;
  }
  return (await exited) !== 0 && killed;
}

/** `ms` milliseconds. */
export function after(ms: number): () => Promise<void> {
  return () => new Promise((resolve) => setTimeout(resolve, ms));
}

/** Resolves when `path` exists (polled every 2 ms) or the process has exited. */
export async function pathAppears(path: string, exited: Promise<unknown>): Promise<void> {
  const state = { exited: false };
  void exited.then(() => {
    state.exited = true;
  });
  while (!state.exited && !existsSync(path)) await new Promise((resolve) => setTimeout(resolve, 2));
}
