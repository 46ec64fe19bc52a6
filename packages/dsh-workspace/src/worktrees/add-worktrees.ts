/**
 * @module add-worktrees
 * The git side of `dsh peers --worktree` and `dsh fork --worktree` (SPEC §20, §27): one `git worktree`
 * per peer on a new branch `dsh/<name>` at the baseline checkout's HEAD, and what a peer changed there.
 * Every git call goes through dsh-workspace's `runGit` against the repository and admin folder dsh
 * recorded when it made the worktree (`worktree-record.ts`), never one a `.git` file in it names.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, realpath } from 'node:fs/promises';
import { dirname, join, relative, resolve } from 'node:path';
import { findCheckout } from '../find-checkout.js';
import { WorkspaceError } from '../workspace-error.js';
import { branchesClash, checkWorktreeName } from './check-worktree-name.js';
import { removeWorktree } from './remove-worktree.js';
import { gitFailed, runGit } from '../run-git.js';
import { changedFiles } from './worktree-git.js';
import { listWorktreeRecords, worktreePath, worktreeRecordFor, writeWorktreeRecord, type WorktreeRecord } from './worktree-record.js';

/** The baseline checkout worktrees are made from: its repository, HEAD, and where the baseline's cwd sits in it. */
export type BaselineCheckout = { root: string; gitDir: string; commonDir: string; head: string; subdir: string };

function notARepository(message: string, hint: string): WorkspaceError {
  return new WorkspaceError('NOT_A_GIT_REPOSITORY', message, { hint });
}

/**
 * The git checkout holding `cwd` (`NOT_A_GIT_REPOSITORY` when there is none, or no commit to branch
 * from). A cwd in a worktree dsh made is read from its record; any other is the one discovery.
 */
export async function checkoutOf(cwd: string | undefined, baseline: string, dataDir: string): Promise<BaselineCheckout> {
  if (cwd === undefined || !existsSync(cwd)) {
    throw notARepository(
      `--worktree needs the baseline's working directory inside a git repository; ${baseline} ${cwd === undefined ? 'records no working directory' : `runs in ${cwd}, which does not exist`}.`,
      'give each peer a directory with --cwd DIR instead',
    );
  }
  const recorded = await worktreeRecordFor(dataDir, cwd);
  if (recorded?.adminDir != null) {
    const head = await runGit(['rev-parse', '--verify', '--quiet', 'HEAD^{commit}'], { gitDir: recorded.adminDir });
    if (!head.ok) throw gitFailed(`git rev-parse HEAD in the worktree of ${recorded.name}`, head);
    return {
      root: recorded.path,
      gitDir: recorded.adminDir,
      commonDir: recorded.commonDir,
      head: head.stdout.toString('utf8').trim(),
      subdir: relative(recorded.path, cwd),
    };
  }
  const found = await findCheckout(cwd);
  if (found === undefined)
    throw notARepository(
      `--worktree needs the baseline's working directory inside a git repository; ${cwd} is not in one.`,
      'run `git init` there and commit, or give each peer a directory with --cwd DIR',
    );
  if (found.head === undefined)
    throw notARepository(
      `--worktree branches each peer from HEAD, but the repository at ${found.root} has no commit yet.`,
      'commit once, then run dsh peers again',
    );
  return { ...found, head: found.head, subdir: relative(found.root, await realpath(resolve(cwd))) };
}

/**
 * Refuses, before anything is created, names that are no branch names or clash with each other
 * (`INVALID_BRANCH_NAME`: also `x` beside `x/y`), with a branch of the repository (`BRANCH_EXISTS`),
 * or with a worktree dsh made or a folder in its place (`WORKTREE_EXISTS`).
 */
export async function checkWorktreesFree(checkout: BaselineCheckout, dataDir: string, names: readonly string[]): Promise<void> {
  for (const name of names) checkWorktreeName(name);
  for (const [index, name] of names.entries()) {
    const other = names.slice(index + 1).find((later) => branchesClash(`dsh/${name}`, `dsh/${later}`));
    if (other !== undefined)
      throw new WorkspaceError(
        'INVALID_BRANCH_NAME',
        `Peer names '${name}' and '${other}' cannot both be branches: dsh/${name.length < other.length ? name : other} would be a branch and a folder of branches at once; expected names of which none is a folder of another.`,
      );
  }
  const refs = await runGit(['for-each-ref', '--format=%(refname)', 'refs/heads/dsh'], { gitDir: checkout.commonDir });
  if (!refs.ok) throw gitFailed('git for-each-ref', refs);
  const branches = refs.stdout
    .toString('utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((ref) => ref.slice('refs/heads/'.length));
  const records = await listWorktreeRecords(dataDir);
  for (const name of names) {
    const branch = `dsh/${name}`;
    const taken = branches.find((existing) => branchesClash(existing, branch));
    if (taken !== undefined) {
      throw new WorkspaceError(
        'BRANCH_EXISTS',
        taken === branch
          ? `Branch ${branch} already exists in ${checkout.root}: expected a new branch for peer '${name}'.`
          : `Branch ${taken} exists in ${checkout.root}, so ${branch} cannot (one would be a folder of the other): expected a new branch for peer '${name}'.`,
        { hint: `remove the old peer's worktree with \`dsh peers --remove ${taken.slice('dsh/'.length)}\`, or choose another --name` },
      );
    }
    const made = records.find((record) => branchesClash(record.branch, branch));
    const path = worktreePath(dataDir, name);
    if (made !== undefined || existsSync(path))
      throw new WorkspaceError(
        'WORKTREE_EXISTS',
        `A worktree for peer '${made?.name ?? name}' already exists at ${made?.path ?? path}: expected none where peer '${name}' would go.`,
        { hint: `dsh peers --remove ${made?.name ?? name}` },
      );
  }
}

/** The admin folder git made in `commonDir` for the worktree at `path` (found by its `gitdir` file, in the repository). */
async function adminDirOf(commonDir: string, path: string): Promise<string> {
  const wanted = new Set([join(path, '.git'), join(await realpath(path).catch(() => path), '.git')]);
  const folder = join(commonDir, 'worktrees');
  for (const entry of await readdir(folder).catch(() => [])) {
    const gitdir = await readFile(join(folder, entry, 'gitdir'), 'utf8').catch(() => '');
    if (wanted.has(gitdir.trim())) return join(folder, entry);
  }
  throw new WorkspaceError('GIT_FAILED', `git worktree add made no admin folder for ${path} in ${folder}: expected one naming it.`);
}

/** Adds peer `name`'s worktree on a new branch `dsh/<name>` at the baseline's HEAD, recorded before and after; returns the peer's cwd. */
async function addWorktree(checkout: BaselineCheckout, dataDir: string, name: string): Promise<string> {
  const path = worktreePath(dataDir, name);
  const record: WorktreeRecord = {
    version: 1,
    name,
    branch: `dsh/${name}`,
    path,
    subdir: checkout.subdir,
    commonDir: checkout.commonDir,
    adminDir: null,
    head: checkout.head,
  };
  await mkdir(dirname(path), { recursive: true });
  // Recorded first: a kill during `git worktree add` leaves what `dsh peers --remove NAME` finds and cleans.
  await writeWorktreeRecord(dataDir, record);
  const added = await runGit(['worktree', 'add', '--quiet', '-b', record.branch, path, checkout.head], { gitDir: checkout.commonDir });
  if (!added.ok) throw gitFailed(`git worktree add for peer '${name}'`, added);
  await writeWorktreeRecord(dataDir, { ...record, adminDir: await adminDirOf(checkout.commonDir, path) });
  return join(path, checkout.subdir);
}

/**
 * Adds one worktree per name (checked first with `checkWorktreesFree`); returns their cwds in order.
 * When one cannot be made, those made so far (and the half-made one) are removed before the error is thrown.
 */
export async function addWorktrees(checkout: BaselineCheckout, dataDir: string, names: readonly string[]): Promise<string[]> {
  const cwds: string[] = [];
  for (const name of names) {
    try {
      cwds.push(await addWorktree(checkout, dataDir, name));
    } catch (error) {
      // Empty checkouts no session ran in yet: nothing is lost by removing them.
      for (const made of names.slice(0, cwds.length + 1)) await removeWorktree(dataDir, made, true).catch(() => undefined);
      throw error;
    }
  }
  return cwds;
}

/** What changed in the worktree dsh made that holds `cwd`, or undefined when `cwd` is in none. */
export async function changedFilesAt(dataDir: string, cwd: string | undefined): Promise<string[] | undefined> {
  const record = await worktreeRecordFor(dataDir, cwd);
  return record === undefined ? undefined : changedFiles(record);
}
