/**
 * @module diff-trees
 * Which paths differ between two checkpoints, or between a checkpoint and a workspace's files now.
 */
import { gitFailed, runGit } from '../run-git.js';
import { captureTree, type SkippedPath } from './capture-tree.js';
import { assertTree, checkObjectId, type StoreContext } from './store-context.js';

/** How a path differs from the first tree to the second. */
export type DiffChange = 'added' | 'deleted' | 'modified' | 'type-changed';

/** One path that differs. */
export type DiffEntry = { path: string; change: DiffChange };

/** The paths that differ, sorted; `skipped`: paths of the current files that could not be captured. */
export type WorkspaceDiff = { changes: DiffEntry[]; skipped?: SkippedPath[] };

const CHANGES: Readonly<Record<string, DiffChange>> = { A: 'added', D: 'deleted', M: 'modified', T: 'type-changed' };

/** Compares `from` with a tree, or with the files in `{ cwd }` now (captured, not kept for a session). */
export async function diffTrees(context: StoreContext, from: string, to: string | { cwd: string }): Promise<WorkspaceDiff> {
  checkObjectId('from', from);
  await assertTree(context, from);
  let target: string;
  let skipped: SkippedPath[] = [];
  if (typeof to === 'string') {
    target = checkObjectId('to', to);
    await assertTree(context, target);
  } else {
    const capture = await captureTree(context, to.cwd, {
      budgetMs: 60_000,
      maxFileBytes: 50 * 1024 * 1024,
      maxNewBytes: Number.MAX_SAFE_INTEGER,
    });
    target = capture.tree;
    skipped = capture.skipped;
  }
  const changes = await changedPaths(context, from, target);
  return skipped.length === 0 ? { changes } : { changes, skipped };
}

/** `diff-tree -r` between two trees of the store, renames not detected. */
export async function changedPaths(context: StoreContext, from: string, to: string): Promise<DiffEntry[]> {
  const diff = await runGit(['diff-tree', '-r', '-z', '--no-renames', '--name-status', from, to], { gitDir: context.dir });
  if (!diff.ok) throw gitFailed(`comparing ${from} with ${to}`, diff);
  const fields = diff.stdout.toString('utf8').split('\0');
  const changes: DiffEntry[] = [];
  for (let at = 0; at + 1 < fields.length; at += 2) {
    const change = CHANGES[fields[at] ?? ''];
    const path = fields[at + 1];
    if (change !== undefined && path !== undefined) changes.push({ path, change });
  }
  return changes;
}
