/**
 * @module peer-worktrees
 * The git side of `dsh peers --worktree` (SPEC §20): one `git worktree` per peer on a new branch
 * `dsh/<name>` at the baseline checkout's HEAD, what a peer changed there, and removing a worktree
 * and its branch without ever deleting uncommitted work or unmerged commits silently.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative, resolve } from 'node:path';
import { CliError } from './cli-error.js';

type GitResult = { ok: boolean; stdout: string; stderr: string };

/** Runs `git ARGS` in `cwd`; never throws for a non-zero exit (the caller reads `ok`). */
function git(cwd: string, args: readonly string[]): Promise<GitResult> {
  return new Promise((done, fail) => {
    execFile('git', ['-C', cwd, ...args], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error !== null && typeof (error as { code?: unknown }).code === 'string') {
        fail(new CliError('GIT_NOT_FOUND', `Could not run git (${error.message}): expected git on PATH for --worktree.`));
        return;
      }
      done({ ok: error === null, stdout, stderr });
    });
  });
}

function gitFailed(what: string, result: GitResult): CliError {
  return new CliError('GIT_FAILED', `${what} failed: ${result.stderr.trim() || result.stdout.trim() || 'git exited non-zero'}`);
}

/** Where peer `name`'s worktree lives: under the data directory, outside every checkout. */
export function worktreePath(dataDir: string, name: string): string {
  return join(dataDir, 'worktrees', name);
}

/** The baseline checkout a set of worktrees is made from: its top level and where `cwd` sits in it. */
export type Checkout = { root: string; subdir: string };

/** The git checkout holding `cwd` (`NOT_A_GIT_REPOSITORY` when there is none, or no commit to branch from). */
export async function checkoutOf(cwd: string | undefined, baseline: string): Promise<Checkout> {
  if (cwd === undefined || !existsSync(cwd)) {
    throw new CliError(
      'NOT_A_GIT_REPOSITORY',
      `--worktree needs the baseline's working directory inside a git repository; ${baseline} ${cwd === undefined ? 'records no working directory' : `runs in ${cwd}, which does not exist`}.`,
      {
        hint: 'give each peer a directory with --cwd DIR instead',
      },
    );
  }
  const top = await git(cwd, ['rev-parse', '--show-toplevel']);
  if (!top.ok) {
    throw new CliError(
      'NOT_A_GIT_REPOSITORY',
      `--worktree needs the baseline's working directory inside a git repository; ${cwd} is not in one.`,
      {
        hint: 'run `git init` there and commit, or give each peer a directory with --cwd DIR',
      },
    );
  }
  const root = top.stdout.trim();
  if (!(await git(root, ['rev-parse', '--verify', '--quiet', 'HEAD'])).ok) {
    throw new CliError(
      'NOT_A_GIT_REPOSITORY',
      `--worktree branches each peer from HEAD, but the repository at ${root} has no commit yet.`,
      { hint: 'commit once, then run dsh peers again' },
    );
  }
  return { root, subdir: relative(root, resolve(cwd)) };
}

/** Refuses, before anything is created, a peer whose branch name is invalid or taken, or whose worktree path exists. */
export async function checkWorktreesFree(checkout: Checkout, dataDir: string, names: readonly string[]): Promise<void> {
  for (const name of names) {
    const branch = `dsh/${name}`;
    if (!(await git(checkout.root, ['check-ref-format', '--branch', branch])).ok) {
      throw new CliError(
        'INVALID_BRANCH_NAME',
        `Peer name '${name}' does not make a git branch name (${branch}): expected letters, digits, '-', '_', '.' or '/'.`,
      );
    }
    if ((await git(checkout.root, ['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`])).ok) {
      throw new CliError(
        'BRANCH_EXISTS',
        `Branch ${branch} already exists in ${checkout.root}: expected a new branch for peer '${name}'.`,
        {
          hint: `remove the old peer's worktree with \`dsh peers --remove ${name}\`, or choose another --name`,
        },
      );
    }
    const path = worktreePath(dataDir, name);
    if (existsSync(path))
      throw new CliError('WORKTREE_EXISTS', `A worktree for peer '${name}' already exists at ${path}: expected none.`, {
        hint: `dsh peers --remove ${name}`,
      });
  }
}

/** Adds peer `name`'s worktree on a new branch `dsh/<name>` at HEAD; returns the peer's cwd in it. */
export async function addWorktree(checkout: Checkout, dataDir: string, name: string): Promise<string> {
  const path = worktreePath(dataDir, name);
  await mkdir(join(dataDir, 'worktrees'), { recursive: true });
  const added = await git(checkout.root, ['worktree', 'add', '--quiet', '-b', `dsh/${name}`, path, 'HEAD']);
  if (!added.ok) throw gitFailed(`git worktree add for peer '${name}'`, added);
  return join(path, checkout.subdir);
}

/** The paths `git status` reports as changed (modified, added, deleted, untracked) in the checkout holding `cwd`. */
export async function changedFiles(cwd: string): Promise<string[]> {
  const status = await git(cwd, ['status', '--porcelain=v1', '-z', '--untracked-files=all']);
  if (!status.ok) return [];
  const entries = status.stdout.split('\0').filter((entry) => entry !== '');
  const files: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as string;
    files.push(entry.slice(3));
    // A rename or copy is followed by its source path, which is not a change of its own.
    if (entry[0] === 'R' || entry[0] === 'C') index++;
  }
  return files.sort();
}

/**
 * Removes peer `name`'s worktree and its branch `dsh/<name>`. Refuses `WORKTREE_HAS_CHANGES` when the
 * worktree holds uncommitted changes and `BRANCH_NOT_MERGED` when the branch has commits no other
 * branch has, unless `force`. Returns the worktree's path.
 */
export async function removeWorktree(dataDir: string, name: string, force: boolean): Promise<string> {
  const path = worktreePath(dataDir, name);
  if (!existsSync(path))
    throw new CliError('WORKTREE_NOT_FOUND', `No worktree for peer '${name}': expected one at ${path}.`, {
      hint: 'list them with `git worktree list`',
    });
  const common = await git(path, ['rev-parse', '--path-format=absolute', '--git-common-dir']);
  if (!common.ok) throw gitFailed(`git rev-parse in ${path}`, common);
  const repository = common.stdout.trim();
  const branch = `dsh/${name}`;
  if (!force) {
    const changed = await changedFiles(path);
    if (changed.length > 0) {
      throw new CliError(
        'WORKTREE_HAS_CHANGES',
        `The worktree of peer '${name}' (${path}) has uncommitted changes (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}): expected a clean worktree.`,
        {
          hint: `commit them on ${branch} (git -C ${path} commit -am …) or discard them with --force`,
        },
      );
    }
    const unmerged = await git(repository, ['rev-list', '--count', `refs/heads/${branch}`, '--not', `--exclude=${branch}`, '--branches']);
    if (unmerged.ok && Number(unmerged.stdout.trim()) > 0) {
      throw new CliError(
        'BRANCH_NOT_MERGED',
        `Branch ${branch} has ${unmerged.stdout.trim()} commit(s) no other branch has: expected them merged before it is deleted.`,
        {
          hint: `merge ${branch} first, or delete it anyway with --force`,
        },
      );
    }
  }
  const removed = await git(repository, ['worktree', 'remove', ...(force ? ['--force', '--force'] : []), path]);
  if (!removed.ok) throw gitFailed(`git worktree remove ${path}`, removed);
  const deleted = await git(repository, ['branch', '-D', branch]);
  if (!deleted.ok) throw gitFailed(`git branch -D ${branch}`, deleted);
  return path;
}
