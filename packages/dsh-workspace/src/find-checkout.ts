/**
 * @module find-checkout
 * The one git call that discovers a repository: the checkout a user pointed dsh at (a session's
 * recorded cwd). Everything after it names that repository explicitly (`runGit`'s `gitDir`).
 */
import { realpath, stat } from 'node:fs/promises';
import { safeGitArgs, safeGitEnv, spawnGit } from './run-git.js';
import { WorkspaceError } from './workspace-error.js';

/** A git checkout: its top level, its own git folder (a worktree's admin folder) and the repository's common folder. */
export type Checkout = {
  /** The top level of the work tree. */
  root: string;
  /** `--git-dir` for commands on this work tree (for a linked worktree, its admin folder). */
  gitDir: string;
  /** The repository's common folder (objects, refs, the worktrees list). */
  commonDir: string;
  /** The commit HEAD names, or undefined in a repository with no commit yet. */
  head: string | undefined;
};

/**
 * The checkout holding `cwd`, or undefined when `cwd` is in none. Refuses `NO_WORKSPACE` when `cwd` is
 * not an existing directory. Runs with the safe configuration (no fsmonitor, no hooks) like every call.
 */
export async function findCheckout(cwd: string): Promise<Checkout | undefined> {
  const info = await stat(cwd).catch(() => undefined);
  if (info === undefined || !info.isDirectory())
    throw new WorkspaceError(
      'NO_WORKSPACE',
      `Expected an existing directory as the workspace; ${cwd} ${info === undefined ? 'does not exist' : 'is not a directory'}.`,
    );
  const env = safeGitEnv();
  const found = await spawnGit(
    [...safeGitArgs(undefined), 'rev-parse', '--path-format=absolute', '--show-toplevel', '--git-dir', '--git-common-dir'],
    cwd,
    env,
  );
  if (!found.ok) return undefined;
  const [root, gitDir, commonDir] = found.stdout.toString('utf8').split('\n');
  if (root === undefined || root === '' || gitDir === undefined || commonDir === undefined) return undefined;
  const head = await spawnGit([...safeGitArgs({ gitDir }), 'rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], gitDir, env);
  return {
    root: await realpath(root),
    gitDir: await realpath(gitDir),
    commonDir: await realpath(commonDir),
    head: head.ok ? head.stdout.toString('utf8').trim() : undefined,
  };
}
