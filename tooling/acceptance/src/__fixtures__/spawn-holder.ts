/** Spawns `hold-session.ts` in its own Node process; `stop()` lets it release cleanly, `kill9()` crashes it. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type Holder = { readonly pid: number; stop(): Promise<void>; kill9(): Promise<void> };

const live = new Set<ChildProcess>();

/** Starts a holder of `id` in the store at `dir` and resolves once it holds the session (60 s at most). */
export async function spawnHolder(dir: string, id: string): Promise<Holder> {
  const child = spawn(
    process.execPath,
    ['--conditions=@dsh/source', '--import', 'tsx', join(import.meta.dirname, 'hold-session.ts'), dir, id],
    {
      cwd: join(import.meta.dirname, '..', '..'),
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new Error(`holder ${String(child.pid)} did not become ready`));
    }, 60_000);
    createInterface({ input: child.stdout }).on('line', (line) => {
      if ((JSON.parse(line) as { ready?: boolean }).ready === true) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      reject(new Error(`holder ${String(child.pid)} exited before it was ready`));
    });
  });
  return {
    pid: child.pid!,
    async stop() {
      child.stdin.end();
      await exited;
    },
    async kill9() {
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** Kills every holder still running (test cleanup), each by its own pid. */
export async function killHolders(): Promise<void> {
  await Promise.all(
    [...live].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) {
            resolve();
            return;
          }
          child.once('exit', () => {
            resolve();
          });
          child.kill('SIGKILL');
        }),
    ),
  );
}
