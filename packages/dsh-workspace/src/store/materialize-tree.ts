/**
 * @module materialize-tree
 * A new directory holding exactly a checkpoint's files (the base of a fork's worktree at the cut).
 */
import { lstat, mkdir, realpath, rm } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { gitFailed } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';
import { assertTree, checkObjectId, tempPath, type StoreContext, gitOnFiles } from './store-context.js';

/**
 * Creates `targetDir` with exactly `tree`'s files (links as links) and returns its real path.
 * `WORKTREE_EXISTS` if it exists; on any failure nothing is left behind.
 */
export async function materializeTree(context: StoreContext, tree: string, targetDir: string): Promise<{ dir: string }> {
  checkObjectId('tree', tree);
  const target = resolve(targetDir);
  await assertTree(context, tree);
  const exists = (): WorkspaceError =>
    new WorkspaceError('WORKTREE_EXISTS', `Expected ${target} not to exist: a checkpoint is written only into a new directory.`);
  if (
    await lstat(target).then(
      () => true,
      () => false,
    )
  )
    throw exists();
  await mkdir(dirname(target), { recursive: true });
  try {
    await mkdir(target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw exists();
    throw error;
  }
  const index = tempPath(context, 'materialize');
  try {
    const written = await gitOnFiles(['read-tree', '--reset', '-u', tree], {
      gitDir: context.dir,
      workTree: target,
      indexFile: index,
      config: [['core.symlinks', 'true']],
    });
    if (!written.ok) throw gitFailed(`writing checkpoint ${tree} into ${target}`, written);
    return { dir: await realpath(target) };
  } catch (error) {
    await rm(target, { recursive: true, force: true });
    throw error;
  } finally {
    await rm(index, { force: true });
  }
}
