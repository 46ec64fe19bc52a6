/** Spawns `store-process.ts` (or `segment-process.ts`) in a real Node process and reads its JSON lines. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

export type StoreProcess = {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly messages: Record<string, unknown>[];
  /** Resolves with the first message (past or future) that `match` accepts; rejects after `timeoutMs`. */
  waitFor(match: (message: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  /** SIGKILL, resolved once the process is gone (reaped). */
  kill9(): Promise<void>;
  /** Closes stdin and waits for a clean exit. */
  stop(): Promise<void>;
};

const live = new Set<ChildProcess>();

/**
 * Starts a store process. `wrap` runs it under another command (e.g. `unshare --pid --fork
 * --mount-proc --kill-child`), so `pid` is then the wrapper's.
 */
export function spawnStoreProcess(
  mode: 'hold' | 'race' | 'write' | 'fork' | 'open' | 'import' | 'publish',
  dir: string,
  id: string,
  wrap: readonly string[] = [],
): StoreProcess {
  const packageDir = join(import.meta.dirname, '..', '..');
  const node = [
    process.execPath,
    '--conditions=@dsh/source',
    '--import',
    'tsx',
    // `publish` runs the segment store's own process (`segment-process.ts`); the others the store's.
    join(import.meta.dirname, mode === 'publish' ? 'segment-process.ts' : 'store-process.ts'),
    mode,
    dir,
    id,
  ];
  const command = [...wrap, ...node];
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: packageDir,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  live.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      live.delete(child);
      resolve();
    });
  });
  const messages: Record<string, unknown>[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: child.stdout }).on('line', (line) => {
    messages.push(JSON.parse(line) as Record<string, unknown>);
    for (const listener of listeners) listener();
  });
  return {
    child,
    pid: child.pid!,
    messages,
    waitFor(match, timeoutMs = 60_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = messages.find(match);
          if (found === undefined) return;
          cleanup();
          resolve(found);
        };
        const failed = () => {
          cleanup();
          reject(
            new Error(`store process ${String(child.pid)} exited before the expected message; got ${JSON.stringify(messages.slice(-3))}`),
          );
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`timed out waiting for a message from ${String(child.pid)}; got ${JSON.stringify(messages.slice(-3))}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          listeners.delete(check);
          child.off('exit', failed);
        };
        listeners.add(check);
        child.once('exit', failed);
        check();
      });
    },
    async kill9() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
      await exited;
    },
    async stop() {
      child.stdin.end();
      await exited;
    },
  };
}

/** Kills every store process still running (test cleanup). */
export async function killAllStoreProcesses(): Promise<void> {
  const waits = [...live].map(
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
  );
  await Promise.all(waits);
}
