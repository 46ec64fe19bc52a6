/**
 * @module run-git
 * The only way dsh runs git (SPEC §27): against a repository and work tree the caller names
 * (`--git-dir` / `--work-tree`, never discovered from a folder a session's tools can write), with no
 * system or global configuration, no inherited `GIT_*` variables, and every configuration key that
 * makes git start a program overridden on the command line (which beats any repository's config).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { WorkspaceError } from './workspace-error.js';

/**
 * Configuration given to every git call. Each key is one through which a config file could make git
 * run a program (or write where dsh did not ask); a command-line `-c` wins over every config file.
 */
export const SAFE_GIT_CONFIG: readonly (readonly [string, string])[] = [
  ['core.fsmonitor', 'false'],
  ['core.useBuiltinFSMonitor', 'false'],
  // A path that is not a directory: no hook is ever found (an empty value would mean "hooks/" from
  // the current directory on some versions).
  ['core.hooksPath', '/dev/null'],
  ['core.pager', 'cat'],
  ['core.editor', 'false'],
  ['sequence.editor', 'false'],
  ['core.sshCommand', 'false'],
  ['core.gitProxy', ''],
  ['core.askPass', ''],
  ['credential.helper', ''],
  ['core.alternateRefsCommand', ''],
  ['diff.external', ''],
  ['core.attributesFile', '/dev/null'],
  ['core.untrackedCache', 'false'],
  ['core.splitIndex', 'false'],
  ['gc.auto', '0'],
  ['maintenance.auto', 'false'],
  ['commit.gpgSign', 'false'],
  ['tag.gpgSign', 'false'],
  ['gpg.program', 'false'],
  ['submodule.recurse', 'false'],
  ['fetch.recurseSubmodules', 'false'],
  ['protocol.allow', 'never'],
  ['protocol.file.allow', 'always'],
  ['uploadpack.packObjectsHook', ''],
  ['color.ui', 'false'],
  ['advice.detachedHead', 'false'],
  ['init.defaultBranch', 'main'],
];

/** What a git call names: the repository (`gitDir`), and for commands that read files, the work tree. */
export type GitTarget = {
  /** The repository or worktree admin folder dsh created or was pointed at (never discovered). */
  gitDir: string;
  /** The folder whose files git reads or writes; omit for commands that touch only objects and refs. */
  workTree?: string;
  /** A private index (`GIT_INDEX_FILE`), so the repository's own index is never touched. */
  indexFile?: string;
};

/** Options of one call beside its target. */
export type RunGitOptions = GitTarget & {
  /** Bytes written to git's stdin. */
  input?: string | Uint8Array;
  /** Extra `-c key=value` pairs (applied before the safe set, so they can never override it). */
  config?: readonly (readonly [string, string])[];
  /** Extra environment (only `GIT_*` names dsh owns: author and committer identity, alternates). */
  env?: Readonly<Record<string, string>>;
  /** Aborts the call (git is killed); the result is then `ok: false` with `signal` set. */
  signal?: AbortSignal;
  /** Largest stdout kept, in bytes (default 256 MiB); beyond it the call fails `GIT_FAILED`. */
  maxOutputBytes?: number;
};

/** What git answered. A non-zero exit is `ok: false`, never a throw. */
export type GitResult = {
  ok: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
};

/** Variables passed through from dsh's own environment; every other one (all `GIT_*` above all) is dropped. */
const PASSED_ENV = ['PATH', 'HOME', 'TMPDIR', 'SYSTEMROOT'];

/** The environment of a git call: nothing git reads from dsh's caller, no config file but the repository's. */
export function safeGitEnv(extra: Readonly<Record<string, string>> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const name of PASSED_ENV) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  return {
    ...env,
    LC_ALL: 'C',
    LANG: 'C',
    GIT_CONFIG_NOSYSTEM: '1',
    GIT_CONFIG_GLOBAL: '/dev/null',
    GIT_ATTR_NOSYSTEM: '1',
    GIT_TERMINAL_PROMPT: '0',
    GIT_OPTIONAL_LOCKS: '0',
    GIT_NO_REPLACE_OBJECTS: '1',
    GIT_PROTOCOL_FROM_USER: '0',
    GIT_PAGER: 'cat',
    GIT_AUTHOR_NAME: 'dsh',
    GIT_AUTHOR_EMAIL: 'dsh@localhost',
    GIT_COMMITTER_NAME: 'dsh',
    GIT_COMMITTER_EMAIL: 'dsh@localhost',
    ...extra,
  };
}

/**
 * The arguments before the subcommand: the target (none only for `findCheckout`'s one discovery), then
 * the caller's config, then the safe set (the last `-c` of a key wins).
 */
export function safeGitArgs(target: GitTarget | undefined, config: readonly (readonly [string, string])[] = []): string[] {
  const args = ['--no-pager', '--no-replace-objects'];
  if (target !== undefined) args.push(`--git-dir=${target.gitDir}`);
  if (target?.workTree !== undefined) args.push(`--work-tree=${target.workTree}`);
  for (const [key, value] of [...config, ...SAFE_GIT_CONFIG]) args.push('-c', `${key}=${value}`);
  return args;
}

/**
 * Runs `git ARGS` against `options.gitDir` (and `options.workTree`) with command-running configuration
 * off. Resolves for any exit status (read `ok`); throws `GIT_NOT_FOUND` when git cannot be started.
 */
export function runGit(args: readonly string[], options: RunGitOptions): Promise<GitResult> {
  const env = safeGitEnv(options.env);
  if (options.indexFile !== undefined) env['GIT_INDEX_FILE'] = options.indexFile;
  // cwd: a folder git cannot discover anything from by accident, the repository itself.
  return spawnGit([...safeGitArgs(options, options.config), ...args], options.gitDir, env, options);
}

/** Spawns git with fully formed arguments and environment; the one place a git process starts. */
export function spawnGit(
  fullArgs: readonly string[],
  cwd: string,
  env: Record<string, string>,
  options: Pick<RunGitOptions, 'input' | 'signal' | 'maxOutputBytes'> = {},
): Promise<GitResult> {
  const limit = options.maxOutputBytes ?? 256 * 1024 * 1024;
  const what = fullArgs.find((arg, index) => !arg.startsWith('-') && fullArgs[index - 1] !== '-c') ?? 'git';
  return new Promise((resolve, reject) => {
    const child = spawn('git', fullArgs, {
      cwd,
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
      ...(options.signal === undefined ? {} : { signal: options.signal }),
    });
    const out: Buffer[] = [];
    let outBytes = 0;
    let overflow = false;
    const err: Buffer[] = [];
    let errBytes = 0;
    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > limit) {
        overflow = true;
        child.kill('SIGKILL');
        return;
      }
      out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      // stderr is for messages; keep the first 64 KiB.
      if (errBytes < 65_536) err.push(chunk);
      errBytes += chunk.length;
    });
    child.stdin.on('error', () => undefined);
    child.on('error', (error: NodeJS.ErrnoException) => {
      if (error.name === 'AbortError') return;
      if (error.code === 'ENOENT' && !existsSync(cwd)) {
        reject(new WorkspaceError('GIT_FAILED', `git could not start in ${cwd}: it does not exist.`, { cause: error }));
      } else if (error.code === 'ENOENT' || error.code === 'EACCES') {
        reject(new WorkspaceError('GIT_NOT_FOUND', `Could not run git (${error.code}): expected a git program on PATH.`, { cause: error }));
      } else if (error.code === 'ENOTDIR') {
        reject(new WorkspaceError('GIT_FAILED', `git could not start in ${cwd}: it is not a directory.`, { cause: error }));
      } else {
        reject(new WorkspaceError('GIT_FAILED', `git could not start: ${error.message}`, { cause: error }));
      }
    });
    child.on('close', (exitCode, signal) => {
      if (overflow) {
        reject(new WorkspaceError('GIT_FAILED', `git ${what} printed more than ${limit} bytes: expected at most that.`));
        return;
      }
      resolve({ ok: exitCode === 0, exitCode, signal, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8') });
    });
    child.stdin.end(options.input);
  });
}

/** Runs git and returns its stdout as text; a non-zero exit throws `GIT_FAILED` naming `what` and git's message. */
export async function gitText(what: string, args: readonly string[], options: RunGitOptions): Promise<string> {
  const result = await runGit(args, options);
  if (!result.ok) throw gitFailed(what, result);
  return result.stdout.toString('utf8');
}

/** The `GIT_FAILED` error for a refused call: what was being done, and what git said. */
export function gitFailed(what: string, result: GitResult): WorkspaceError {
  const said =
    result.stderr.trim() || result.stdout.toString('utf8').trim() || `git exited ${result.exitCode ?? result.signal ?? 'abnormally'}`;
  return new WorkspaceError('GIT_FAILED', `${what} failed: ${said.slice(0, 2000)}`);
}
