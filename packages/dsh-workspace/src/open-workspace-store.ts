/**
 * @module open-workspace-store
 * `openWorkspaceStore`: the content-addressed store of a data folder's workspace checkpoints (SPEC §23),
 * a bare git repository dsh alone writes. Each method is its own module under `store/`.
 */
import { resolve } from 'node:path';
import { diffTrees, type WorkspaceDiff } from './store/diff-trees.js';
import { inheritCheckpoints } from './store/inherit-checkpoints.js';
import { listFiles, type TreeFile } from './store/list-files.js';
import { materializeTree } from './store/materialize-tree.js';
import { releaseSession } from './store/release-session.js';
import { restoreTree, type RestoreOptions, type RestoreResult } from './store/restore-tree.js';
import { createStoreContext } from './store/store-context.js';
import { takeCheckpoint, type Checkpoint, type CheckpointOptions } from './store/take-checkpoint.js';
import { WorkspaceError } from './workspace-error.js';

/** Options of `openWorkspaceStore`. */
export type WorkspaceStoreOptions = {
  /** The store's folder (`<data>/.workspaces.git`); created on first use. */
  dir: string;
  /** Unreferenced objects younger than this survive `release` (default 60 000 ms: checkpoints in flight). */
  pruneGraceMs?: number;
};

/** The checkpoint store of one data folder. */
export type WorkspaceStore = {
  /** The store's folder. */
  readonly dir: string;
  /** Captures `cwd`'s files for a session; O(changed files) after the workspace's first checkpoint. */
  checkpoint(cwd: string, options: CheckpointOptions): Promise<Checkpoint>;
  /** The files of a checkpoint tree; `WORKSPACE_UNAVAILABLE` when this store lacks it. */
  listFiles(tree: string): Promise<TreeFile[]>;
  /** Paths that differ between two trees, or between a tree and `{ cwd }`'s files now. */
  diff(from: string, to: string | { cwd: string }): Promise<WorkspaceDiff>;
  /** A new directory with exactly the tree's files; `WORKTREE_EXISTS` if `targetDir` exists. */
  materialize(tree: string, targetDir: string): Promise<{ dir: string }>;
  /** Sets `cwd`'s files to the tree, touching only paths the `known` checkpoints hold. */
  restore(tree: string, cwd: string, options: RestoreOptions): Promise<RestoreResult>;
  /** A fork child keeps every checkpoint its parent keeps (so deleting the parent loses none of its files). */
  inherit(childId: string, parentId: string): Promise<void>;
  /** Releases a deleted session's checkpoints; objects nothing else keeps are collected. */
  release(sessionId: string): Promise<void>;
};

/** Opens (lazily creates) the store at `dir`. Git errors surface on first use: `GIT_NOT_FOUND` without git. */
export function openWorkspaceStore(options: WorkspaceStoreOptions): WorkspaceStore {
  if (typeof options.dir !== 'string' || options.dir === '')
    throw new WorkspaceError('INVALID_OPTION', 'Expected dir to be the path of the workspace store; got none.');
  const grace = options.pruneGraceMs ?? 60_000;
  if (!Number.isFinite(grace) || grace < 0)
    throw new WorkspaceError('INVALID_OPTION', `Expected pruneGraceMs to be a number of ms ≥ 0; got ${String(grace)}.`);
  const context = createStoreContext(resolve(options.dir), grace);
  return {
    dir: context.dir,
    checkpoint: (cwd, checkpointOptions) => takeCheckpoint(context, cwd, checkpointOptions),
    listFiles: (tree) => listFiles(context, tree),
    diff: (from, to) => diffTrees(context, from, to),
    materialize: (tree, targetDir) => materializeTree(context, tree, targetDir),
    restore: (tree, cwd, restoreOptions) => restoreTree(context, tree, cwd, restoreOptions),
    inherit: (childId, parentId) => inheritCheckpoints(context, childId, parentId),
    release: (sessionId) => releaseSession(context, sessionId),
  };
}
