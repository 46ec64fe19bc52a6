import { spawn } from 'node:child_process';
import { join } from 'node:path';

/** A PostgreSQL server the bench may use, and how to give it back. */
export type PostgresServer = { url: string; stop(): Promise<void> };

/** Why the PostgreSQL workload cannot run (printed and written as the section's note). */
export type PostgresUnavailable = { reason: string };

const STARTUP_LIMIT_MS = 300_000;

/**
 * `DATABASE_URL` when set; otherwise a throwaway server from `scripts/postgres.sh` (Debian's
 * postgresql, installed with apt when missing), kept alive by a shell that waits on its stdin and
 * stops the server when stdin closes — also when the bench dies. Resolves to the reason instead when
 * no server can be had.
 */
export async function findPostgresServer(repoRoot: string, log: (message: string) => void): Promise<PostgresServer | PostgresUnavailable> {
  const given = process.env.DATABASE_URL;
  if (given !== undefined && given !== '') return { url: given, stop: () => Promise.resolve() };
  log('postgres: DATABASE_URL is unset; starting a throwaway server with scripts/postgres.sh');
  const script = join(repoRoot, 'scripts/postgres.sh');
  const child = spawn('bash', ['-c', 'source "$1" && echo "DATABASE_URL=$DATABASE_URL" && read -r _', 'dsh-bench', script], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, DATABASE_URL: '' },
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const url = await new Promise<string | undefined>((resolve) => {
    let stdout = '';
    const timer = setTimeout(() => {
      resolve(undefined);
    }, STARTUP_LIMIT_MS);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      const match = /^DATABASE_URL=(\S+)$/m.exec(stdout);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    void exited.then(() => {
      clearTimeout(timer);
      resolve(undefined);
    });
  });
  const stop = async (): Promise<void> => {
    child.stdin.end();
    if ((await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 30_000, 'late'))])) === 'late') child.kill('SIGKILL');
  };
  if (url === undefined) {
    await stop();
    const last = stderr.trim().split('\n').slice(-3).join(' / ');
    return { reason: `DATABASE_URL is unset and scripts/postgres.sh could not start a server (${last === '' ? 'no output' : last})` };
  }
  return { url, stop };
}
