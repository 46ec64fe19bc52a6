/**
 * @module restore-tree
 * A workspace's files set back to a checkpoint, changing only paths the session's checkpoints know.
 */
import { rename, rm } from 'node:fs/promises';
import { gitFailed } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';
import { captureTree } from './capture-tree.js';
import { changedPaths, type DiffEntry } from './diff-trees.js';
import { listFiles } from './list-files.js';
import {
  checkObjectId,
  describe,
  indexPath,
  realWorkspace,
  tempPath,
  workspaceKey,
  type StoreContext,
  gitOnFiles,
  privateIndex,
} from './store-context.js';

/** Options of `restore`: every checkpoint tree of the session (what "known" means). */
export type RestoreOptions = { known: readonly string[] };

/** What a restore did: paths written or removed (from the files before to the checkpoint), and files left alone. */
export type RestoreResult = { changed: DiffEntry[]; untracked: string[] };

/**
 * Sets `cwd`'s files to `tree`: writes and removes only paths present in `tree` or a `known` tree;
 * files no checkpoint captured stay and are listed in `untracked`. The caller checkpoints first to make it undoable.
 */
export async function restoreTree(context: StoreContext, tree: string, cwd: string, options: RestoreOptions): Promise<RestoreResult> {
  checkObjectId('tree', tree);
  if (!Array.isArray(options.known))
    throw new WorkspaceError('INVALID_OPTION', `Expected known to be an array of tree ids; got ${describe(options.known)}.`);
  for (const known of options.known) checkObjectId('each known tree', known);
  const real = await realWorkspace(cwd);
  const targetFiles = await listFiles(context, tree);
  const knownPaths = new Set(targetFiles.map((file) => file.path));
  for (const known of new Set<string>(options.known)) for (const file of await listFiles(context, known)) knownPaths.add(file.path);
  const current = await captureTree(context, real, {
    budgetMs: 60_000,
    maxFileBytes: Number.MAX_SAFE_INTEGER,
    maxNewBytes: Number.MAX_SAFE_INTEGER,
  });
  const untracked = (await listFiles(context, current.tree)).filter((file) => !knownPaths.has(file.path));
  const merged = await withUntracked(context, tree, untracked);
  const changed = await changedPaths(context, current.tree, merged);
  const index = indexPath(context, workspaceKey(real));
  const working = tempPath(context, 'restore');
  try {
    // The workspace's index now matches the files (the capture above), so git rewrites only what differs.
    await privateIndex(index, working);
    const reset = await gitOnFiles(['read-tree', '--reset', '-u', merged], {
      gitDir: context.dir,
      workTree: real,
      indexFile: working,
      config: [['core.symlinks', 'true']],
    });
    if (!reset.ok) throw gitFailed(`restoring ${real} to ${tree}`, reset);
    await rename(working, index);
  } finally {
    await rm(working, { force: true });
  }
  return { changed, untracked: [...untracked.map((file) => file.path), ...current.skipped.map((entry) => entry.path)].sort() };
}

/** `tree` plus the files no checkpoint knows (so the reset leaves them as they are). */
async function withUntracked(
  context: StoreContext,
  tree: string,
  untracked: readonly { path: string; mode: string; object: string }[],
): Promise<string> {
  if (untracked.length === 0) return tree;
  const index = tempPath(context, 'restore-target');
  const target = { gitDir: context.dir, indexFile: index };
  try {
    const read = await gitOnFiles(['read-tree', tree], target);
    if (!read.ok) throw gitFailed(`reading ${tree}`, read);
    const input = untracked.map((file) => `${file.mode} ${file.object}\t${file.path}\0`).join('');
    const added = await gitOnFiles(['update-index', '-z', '--index-info'], { ...target, input });
    if (!added.ok) throw gitFailed(`keeping the untracked files of the workspace`, added);
    const written = await gitOnFiles(['write-tree'], target);
    if (!written.ok) throw gitFailed(`writing the restore's tree`, written);
    return written.stdout.toString('utf8').trim();
  } finally {
    await rm(index, { force: true });
  }
}
