/**
 * @module The one way tests run the real `dsh` bin (apps/cli, from source, as users run it): a separate
 * Node process with the caller's environment minus what would change dsh's choices (`DSH_HOME`,
 * `DSH_TOKEN`, `NODE_OPTIONS`, the model keys — tests name theirs), every run bounded by a timeout.
 * Used by the CLI's own tests, the acceptance suite and the interop tests.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The workspace's `dsh` bin. */
export const DSH_BIN = fileURLToPath(new URL('../../../apps/cli/bin/dsh.js', import.meta.url));

/** How a run ended: its exit code (or the signal that ended it) and everything it printed. */
export type DshResult = { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string };

/** `env` is added to (or, with `undefined`, removed from) the caller's environment; stdin is written then closed. */
export type DshOptions = { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number };

const DEFAULT_TIMEOUT_MS = 120_000;

function dshEnvironment(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const merged: Record<string, string | undefined> = {
    ...process.env,
    DSH_HOME: undefined,
    DSH_TOKEN: undefined,
    NODE_OPTIONS: undefined,
    // A key in the caller's environment would pick a real model by default (SPEC §25): tests name theirs.
    ANTHROPIC_API_KEY: undefined,
    OPENAI_API_KEY: undefined,
    ...extra,
  };
  return Object.fromEntries(Object.entries(merged).filter(([, value]) => value !== undefined));
}

/** Starts `dsh ARGS` without waiting for it (stdin left open: write to it, or end it). */
export function spawnDsh(args: readonly string[], options: DshOptions = {}): ChildProcess {
  return spawn(process.execPath, [DSH_BIN, ...args], {
    cwd: options.cwd ?? process.cwd(),
    env: dshEnvironment(options.env),
    stdio: 'pipe',
  });
}

/** Starts `dsh ARGS` on a pseudo-terminal (util-linux `script`), as interactive mode needs one. */
export function spawnDshOnTerminal(args: readonly string[], options: DshOptions = {}): ChildProcess {
  const command = [process.execPath, DSH_BIN, ...args].map((part) => `'${part.replace(/'/g, `'\\''`)}'`).join(' ');
  return spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: options.cwd ?? process.cwd(),
    env: dshEnvironment({ NO_COLOR: '1', ...options.env }),
    stdio: 'pipe',
  });
}

/** Collects a started child's output until it closes; kills it (SIGKILL) and rejects after `timeoutMs`. */
function finished(child: ChildProcess, what: string, options: DshOptions): Promise<DshResult> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${what} did not finish within ${String(timeoutMs)} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
  });
}

/** Runs `dsh ARGS` to completion (killed after `timeoutMs`, default 120 s). */
export function runDsh(args: readonly string[], options: DshOptions = {}): Promise<DshResult> {
  return finished(spawnDsh(args, options), `dsh ${args.join(' ')}`, options);
}

/** Runs print mode with `--output-format json` and parses the result object (throws on a non-zero exit). */
export async function printJson(args: readonly string[], options: DshOptions = {}): Promise<Record<string, unknown>> {
  const result = await runDsh([...args, '--output-format', 'json'], options);
  if (result.code !== 0) throw new Error(`dsh ${args.join(' ')} exited ${String(result.code)}: ${result.stderr}`);
  return JSON.parse(result.stdout) as Record<string, unknown>;
}

/**
 * Runs `line` in `sh -c` as a person pastes it, with `dsh` on PATH being this workspace's bin (a
 * shim in `binDir`), so commands dsh printed can be checked to work as printed.
 */
export async function runPrinted(line: string, binDir: string, options: DshOptions = {}): Promise<DshResult> {
  const shim = join(binDir, 'dsh');
  await writeFile(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(DSH_BIN)} "$@"\n`);
  await chmod(shim, 0o755);
  const child = spawn('sh', ['-c', line], {
    cwd: options.cwd ?? process.cwd(),
    env: dshEnvironment({ PATH: `${binDir}:${process.env.PATH ?? ''}`, ...options.env }),
    stdio: 'pipe',
  });
  return finished(child, `sh -c ${line}`, options);
}

/** The first command in backticks on a dsh hint line (`hint: … \`dsh …\` …`). */
export function hintCommand(stderr: string): string {
  const command = /`(dsh [^`]+)`/.exec(stderr)?.[1];
  if (command === undefined) throw new Error(`no command in backticks in:\n${stderr}`);
  return command;
}

/** Resolves once `child`'s stdout (accumulated) matches `pattern`; rejects if it exits first. */
export function outputMatching(child: ChildProcess, pattern: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let seen = '';
    const onData = (chunk: Buffer | string) => {
      seen += chunk.toString();
      if (pattern.test(seen)) {
        child.stdout?.off('data', onData);
        resolve(seen);
      }
    };
    child.stdout?.on('data', onData);
    child.once('exit', (code) => {
      reject(new Error(`dsh exited ${String(code)} before printing ${String(pattern)}:\n${seen}`));
    });
  });
}
