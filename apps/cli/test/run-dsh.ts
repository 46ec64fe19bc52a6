/**
 * Runs the real `dsh` bin as a child process (from source, as users run it) and collects its
 * output. Every run is bounded by a timeout and killed if it overstays.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chmod, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const DSH_BIN = fileURLToPath(new URL('../bin/dsh.js', import.meta.url));

export type DshResult = { code: number | null; stdout: string; stderr: string };

export type DshOptions = { cwd?: string; env?: Record<string, string | undefined>; stdin?: string; timeoutMs?: number };

function baseEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
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

/** Starts `dsh ARGS` without waiting for it. */
export function spawnDsh(args: readonly string[], options: DshOptions = {}): ChildProcess {
  return spawn(process.execPath, [DSH_BIN, ...args], { cwd: options.cwd ?? process.cwd(), env: baseEnv(options.env), stdio: 'pipe' });
}

/** Runs `dsh ARGS` to completion (killed after `timeoutMs`, default 60 s). */
export function runDsh(args: readonly string[], options: DshOptions = {}): Promise<DshResult> {
  const child = spawnDsh(args, options);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin?.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`dsh ${args.join(' ')} did not finish within ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs print mode with `--output-format json` and parses the result object (fails the test on a non-zero exit). */
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
    env: baseEnv({ PATH: `${binDir}:${process.env.PATH ?? ''}`, ...options.env }),
    stdio: 'pipe',
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  child.stdin.end(options.stdin ?? '');
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sh -c ${line} did not finish within ${options.timeoutMs ?? 60_000} ms\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The first command in backticks on a dsh hint line (`hint: … \`dsh …\` …`). */
export function hintCommand(stderr: string): string {
  const command = /`(dsh [^`]+)`/.exec(stderr)?.[1];
  if (command === undefined) throw new Error(`no command in backticks in:\n${stderr}`);
  return command;
}
