/**
 * @module worktree-git
 * The git calls on a worktree dsh made, all through dsh-workspace's `runGit` against the recorded
 * repository and admin folder: what changed in it, and git's list of worktrees.
 */
import { gitFailed, runGit } from '../run-git.js';
import type { WorktreeRecord } from './worktree-record.js';

/** The paths `git status` reports as changed (modified, added, deleted, untracked) in a recorded worktree. */
export async function changedFiles(record: WorktreeRecord): Promise<string[]> {
  if (record.adminDir === null) return [];
  const status = await runGit(['status', '--porcelain=v1', '-z', '--untracked-files=all', '--ignore-submodules=all'], {
    gitDir: record.adminDir,
    workTree: record.path,
  });
  if (!status.ok) return [];
  const entries = status.stdout
    .toString('utf8')
    .split('\0')
    .filter((entry) => entry !== '');
  const files: string[] = [];
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index] as string;
    files.push(entry.slice(3));
    // A rename or copy is followed by its source path, which is not a change of its own.
    if (entry[0] === 'R' || entry[0] === 'C') index++;
  }
  return files.sort();
}

/** One entry of `git worktree list --porcelain`. */
export type ListedWorktree = { path: string; branch: string | undefined; locked: boolean };

/** The worktrees git lists for the repository at `commonDir` (the main one first). */
export async function listWorktrees(commonDir: string): Promise<ListedWorktree[]> {
  const listed = await runGit(['worktree', 'list', '--porcelain'], { gitDir: commonDir });
  if (!listed.ok) throw gitFailed('git worktree list', listed);
  return listed.stdout
    .toString('utf8')
    .split('\n\n')
    .flatMap((block) => {
      const lines = block.split('\n');
      const path = lines.find((line) => line.startsWith('worktree '))?.slice('worktree '.length);
      if (path === undefined) return [];
      const branch = lines.find((line) => line.startsWith('branch '))?.slice('branch '.length);
      return [{ path, branch, locked: lines.some((line) => line === 'locked' || line.startsWith('locked ')) }];
    });
}
