/**
 * Starts `host-process.ts` (one dsh host with its own pool) in a real Node process, optionally under
 * a wrapper command (e.g. in a new PID namespace), and talks to it in JSON lines.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { createInterface, type Interface } from 'node:readline';
import type { SessionEvent } from 'dsh-codec';

export type Reply = {
  ok: boolean;
  code?: string;
  message?: string;
  events?: SessionEvent[];
  ids?: string[];
  lastSeq?: number;
  pid?: number;
};

/** A host process and a way to send it commands; `pid` is the spawned command's (a wrapper's, when wrapped). */
export type HostProcess = {
  child: ChildProcess;
  pid: number;
  send(command: object): Promise<Reply>;
  lines: Interface;
  exited: Promise<void>;
};

export type HostProcessOptions = {
  connectionString: string;
  schema: string;
  leaseMs: number;
  hostId: string;
  /** The command line that runs the host's `node …` command line (default: as it is). */
  wrap?: (command: string[]) => string[];
};

const running = new Set<ChildProcess>();

/** Starts a host; resolves once its store is open (schema migrated). */
export async function startHostProcess(options: HostProcessOptions): Promise<HostProcess> {
  const node = [
    process.execPath,
    '--conditions=@dsh/source',
    '--import',
    'tsx',
    join(import.meta.dirname, 'host-process.ts'),
    options.connectionString,
    options.schema,
    String(options.leaseMs),
    options.hostId,
  ];
  const command = options.wrap?.(node) ?? node;
  const child = spawn(command[0] as string, command.slice(1), {
    cwd: join(import.meta.dirname, '..', '..'),
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  running.add(child);
  const exited = new Promise<void>((resolve) => {
    child.once('exit', () => {
      running.delete(child);
      resolve();
    });
  });
  const lines = createInterface({ input: child.stdout });
  const queue: ((reply: Reply) => void)[] = [];
  lines.on('line', (line) => {
    const parsed = JSON.parse(line) as Reply & { acked?: number };
    if (parsed.acked === undefined) queue.shift()?.(parsed);
  });
  const send = (command: object): Promise<Reply> =>
    new Promise<Reply>((resolve, reject) => {
      queue.push(resolve);
      child.stdin.write(`${JSON.stringify(command)}\n`);
      void exited.then(() => {
        reject(new Error(`host ${options.hostId} exited before answering ${JSON.stringify(command)}`));
      });
    });
  const host: HostProcess = { child, pid: child.pid!, send, lines, exited };
  const ready = await send({ op: 'list' });
  if (!ready.ok) throw new Error(`host ${options.hostId} did not start: ${String(ready.message)}`);
  return host;
}

/** SIGKILLs every host process still running (resumed first, if stopped); resolves once all exited. */
export async function killAllHostProcesses(): Promise<void> {
  const waits = [...running].map(
    (child) =>
      new Promise<void>((resolve) => {
        child.once('exit', () => {
          resolve();
        });
        child.kill('SIGCONT');
        child.kill('SIGKILL');
      }),
  );
  await Promise.all(waits);
}
