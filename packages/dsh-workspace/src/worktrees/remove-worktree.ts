/**
 * @module remove-worktree
 * `dsh peers --remove NAME` (SPEC §20, §27): only a valid peer name, and only a worktree dsh recorded
 * under the data folder that git lists on branch `dsh/NAME`; never uncommitted work or unmerged
 * commits silently; a half-made one (a kill during creation) is cleaned too.
 */
import { existsSync } from 'node:fs';
import { lstat, realpath, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WorkspaceError } from '../workspace-error.js';
import { checkWorktreeName } from './check-worktree-name.js';
import { gitFailed, runGit } from '../run-git.js';
import { changedFiles, listWorktrees, type ListedWorktree } from './worktree-git.js';
import { deleteWorktreeRecord, readWorktreeRecord, worktreePath, type WorktreeRecord } from './worktree-record.js';

/** The entry git lists at `path`, whatever its branch. */
async function listedAt(commonDir: string, path: string): Promise<ListedWorktree | undefined> {
  const real = await realpath(path).catch(() => path);
  return (await listWorktrees(commonDir)).find((entry) => entry.path === path || entry.path === real);
}

/** Whether `refs/heads/<branch>` exists in the repository. */
async function branchExists(commonDir: string, branch: string): Promise<boolean> {
  return (await runGit(['rev-parse', '--verify', '--quiet', `refs/heads/${branch}`], { gitDir: commonDir })).ok;
}

/** A shell word: `value` in single quotes (a quote inside closed, escaped, reopened). */
function shellWord(value: string): string {
  return /^[\w@%+=:,./-]+$/.test(value) ? value : `'${value.replaceAll("'", "'\\''")}'`;
}

/** The commands that commit every change of the worktree at `path`, new files included, as one line to paste. */
function commitAllCommand(path: string, name: string): string {
  const at = `git -C ${shellWord(path)}`;
  return `${at} add -A && ${at} commit -m ${shellWord(`work of peer ${name}`)}`;
}

/** Refuses `WORKTREE_HAS_CHANGES` / `BRANCH_NOT_MERGED` when removing would lose work. */
async function refuseLoss(record: WorktreeRecord, listed: boolean): Promise<void> {
  const { name, path, branch, commonDir } = record;
  const changed = listed ? await changedFiles(record) : [];
  if (changed.length > 0) {
    throw new WorkspaceError(
      'WORKTREE_HAS_CHANGES',
      `The worktree of peer '${name}' (${path}) has uncommitted changes (${changed.slice(0, 5).join(', ')}${changed.length > 5 ? ', …' : ''}): expected a clean worktree.`,
      // `add -A` first: `commit -a` alone would leave the new files a peer wrote behind (SPEC §25).
      { hint: `commit them on ${branch} (${commitAllCommand(path, name)}) or discard them with --force` },
    );
  }
  if (!(await branchExists(commonDir, branch))) return;
  const unmerged = await runGit(['rev-list', '--count', `refs/heads/${branch}`, '--not', `--exclude=${branch}`, '--branches'], {
    gitDir: commonDir,
  });
  if (unmerged.ok && Number(unmerged.stdout.toString('utf8').trim()) > 0) {
    throw new WorkspaceError(
      'BRANCH_NOT_MERGED',
      `Branch ${branch} has ${unmerged.stdout.toString('utf8').trim()} commit(s) no other branch has: expected them merged before it is deleted.`,
      { hint: `merge ${branch} first, or delete it anyway with --force` },
    );
  }
}

/** Deletes the folder dsh made at `DATA/worktrees/NAME`: a real directory there, never a symbolic link or anything it leads to. */
async function deleteOwnFolder(dataDir: string, name: string): Promise<void> {
  const path = worktreePath(dataDir, name);
  const info = await lstat(path).catch(() => undefined);
  if (info === undefined) return;
  const expected = join(await realpath(join(dataDir, 'worktrees')), name);
  if (!info.isDirectory() || (await realpath(path)) !== expected)
    throw new WorkspaceError(
      'WORKTREE_NOT_FOUND',
      `${path} is not the folder dsh made for peer '${name}': expected a directory, not a link.`,
    );
  // fs.rm unlinks symbolic links inside instead of following them.
  await rm(path, { recursive: true, force: true });
}

/** Takes down a worktree git lists: `git worktree remove`, or — when its `.git` was replaced — the folder, then `git worktree prune`. */
async function takeDown(dataDir: string, record: WorktreeRecord): Promise<void> {
  const target = { gitDir: record.commonDir };
  const removed = await runGit(['worktree', 'remove', '--force', '--force', record.path], target);
  if (removed.ok) return;
  // git refuses a worktree whose `.git` no longer points back at its admin folder (the session's
  // tools may have replaced it); the record says what dsh made, so remove that and let git forget it.
  await runGit(['worktree', 'unlock', record.path], target);
  await deleteOwnFolder(dataDir, record.name);
  const pruned = await runGit(['worktree', 'prune'], target);
  if (!pruned.ok) throw gitFailed('git worktree prune', pruned);
  if ((await listedAt(record.commonDir, record.path)) !== undefined) throw gitFailed(`git worktree remove ${record.path}`, removed);
}

/**
 * Removes peer `name`'s worktree and its branch `dsh/<name>` (the session stays). Refuses
 * `INVALID_BRANCH_NAME` for a name no peer can have, `WORKTREE_NOT_FOUND` unless dsh recorded it and
 * git lists it on `dsh/<name>` (or it is half-made), and, unless `force`, `WORKTREE_HAS_CHANGES` /
 * `BRANCH_NOT_MERGED`. Returns the worktree's path.
 */
export async function removeWorktree(dataDir: string, name: string, force: boolean): Promise<string> {
  checkWorktreeName(name);
  const path = worktreePath(dataDir, name);
  const record = await readWorktreeRecord(dataDir, name);
  if (record === undefined) {
    // A dsh killed while it wrote the record left at most its temporary file: no worktree, nothing else.
    await deleteWorktreeRecord(dataDir, name);
    throw new WorkspaceError('WORKTREE_NOT_FOUND', `No worktree dsh made for peer '${name}': expected its record beside ${path}.`, {
      hint: 'dsh removes only worktrees it made; list the others with `git worktree list`',
    });
  }
  const halfMade = record.adminDir === null;
  const entry = await listedAt(record.commonDir, path);
  if (entry !== undefined && entry.branch !== `refs/heads/${record.branch}`)
    throw new WorkspaceError(
      'WORKTREE_NOT_FOUND',
      `git lists ${path} on ${entry.branch ?? 'a detached HEAD'}, not on ${record.branch}: expected the worktree dsh made for peer '${name}'.`,
      { hint: `git -C ${path} switch ${record.branch}, then remove it again` },
    );
  if (entry === undefined && !halfMade && existsSync(path))
    throw new WorkspaceError('WORKTREE_NOT_FOUND', `git lists no worktree at ${path}: expected the one dsh made for peer '${name}'.`, {
      hint: 'list them with `git worktree list`',
    });
  if (!force && !halfMade) await refuseLoss(record, entry !== undefined);
  if (entry !== undefined) {
    await takeDown(dataDir, record);
  } else {
    // Made by dsh (recorded before `git worktree add`, at a path checked free) but never whole, or already gone.
    await deleteOwnFolder(dataDir, name);
    const pruned = await runGit(['worktree', 'prune'], { gitDir: record.commonDir });
    if (!pruned.ok) throw gitFailed('git worktree prune', pruned);
  }
  if (await branchExists(record.commonDir, record.branch)) {
    const deleted = await runGit(['branch', '-D', record.branch], { gitDir: record.commonDir });
    if (!deleted.ok) throw gitFailed(`git branch -D ${record.branch}`, deleted);
  }
  await deleteWorktreeRecord(dataDir, name);
  return path;
}
