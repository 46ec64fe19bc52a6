/**
 * @module open-workspace-store
 * `openWorkspaceStore`: the content-addressed store of a data folder's workspace checkpoints (SPEC §23),
 * a bare git repository dsh alone writes. Each method is its own module under `store/`.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { diffTrees, type WorkspaceDiff } from './store/diff-trees.js';
import { inheritCheckpoints } from './store/inherit-checkpoints.js';
import { listFiles, type TreeFile } from './store/list-files.js';
import { materializeTree } from './store/materialize-tree.js';
import { releaseSession } from './store/release-session.js';
import { requireCheckpoint, type CheckpointPlace } from './store/require-checkpoint.js';
import { restoreTree, type RestoreOptions, type RestoreResult } from './store/restore-tree.js';
import { createStoreContext, describe } from './store/store-context.js';
import { takeCheckpoint, type Checkpoint, type CheckpointOptions } from './store/take-checkpoint.js';
import { WorkspaceError } from './workspace-error.js';

/** Options of `openWorkspaceStore`. */
export type WorkspaceStoreOptions = {
  /** The store's folder (`<data>/.workspaces.git`); created on first use. */
  dir: string;
  /** Unreferenced objects younger than this survive `release` (default 60 000 ms: checkpoints in flight). */
  pruneGraceMs?: number;
  /**
   * The name of the host this store is on (default `os.hostname()`), recorded with each checkpoint so a
   * host sharing the session log (PostgreSQL) but not the store is told where the files are.
   */
  host?: string;
};

/** The checkpoint store of one data folder. */
export type WorkspaceStore = {
  /** The store's folder. */
  readonly dir: string;
  /** The host name each checkpoint records (`host` of the options). */
  readonly host: string;
  /** Captures `cwd`'s files for a session; O(changed files) after the workspace's first checkpoint. */
  checkpoint(cwd: string, options: CheckpointOptions): Promise<Checkpoint>;
  /**
   * Resolves when this store holds the checkpoint's files; else `WORKSPACE_UNAVAILABLE` naming the host
   * and store the checkpoint records (`workspaceAt`'s `host`, `storeDir`). Called before a fork or restore uses it.
   */
  require(checkpoint: CheckpointPlace): Promise<void>;
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
  const host = options.host ?? hostname();
  if (typeof host !== 'string' || host === '')
    throw new WorkspaceError('INVALID_OPTION', `Expected host to be a non-empty host name; got ${describe(host)}.`);
  const context = createStoreContext(resolve(options.dir), grace);
  return {
    dir: context.dir,
    host,
    checkpoint: (cwd, checkpointOptions) => takeCheckpoint(context, host, cwd, checkpointOptions),
    require: (checkpoint) => requireCheckpoint(context, host, checkpoint),
    listFiles: (tree) => listFiles(context, tree),
    diff: (from, to) => diffTrees(context, from, to),
    materialize: (tree, targetDir) => materializeTree(context, tree, targetDir),
    restore: (tree, cwd, restoreOptions) => restoreTree(context, tree, cwd, restoreOptions),
    inherit: (childId, parentId) => inheritCheckpoints(context, childId, parentId),
    release: (sessionId) => releaseSession(context, sessionId),
  };
}
