/**
 * dsh-workspace: the files of a session at any event — checkpoints in a shadow git store, written
 * into a new directory, restored, compared (SPEC §23) — and the one way dsh runs git (SPEC §27).
 *
 * @module
 */
export { runGit, gitText, gitFailed, safeGitArgs, safeGitEnv, SAFE_GIT_CONFIG } from './run-git.js';
export type { GitTarget, RunGitOptions, GitResult } from './run-git.js';
export { findCheckout } from './find-checkout.js';
export type { Checkout } from './find-checkout.js';
export { WorkspaceError, WORKSPACE_ERROR_CODES } from './workspace-error.js';
export type { WorkspaceErrorCode } from './workspace-error.js';
export { openWorkspaceStore } from './open-workspace-store.js';
export { workspaceAt, checkpointOf, checkpointTrees } from './workspace-at.js';
export type { EventLike, WorkspaceAtSeq } from './workspace-at.js';
export type { WorkspaceStore, WorkspaceStoreOptions } from './open-workspace-store.js';
export type { Checkpoint, CheckpointOptions } from './store/take-checkpoint.js';
export type { CheckpointPlace } from './store/require-checkpoint.js';
export type { SkippedPath, SkipReason } from './store/capture-tree.js';
export type { TreeFile } from './store/list-files.js';
export type { DiffChange, DiffEntry, WorkspaceDiff } from './store/diff-trees.js';
export type { RestoreOptions, RestoreResult } from './store/restore-tree.js';
export { openWorktrees } from './worktrees/open-worktrees.js';
export type { Worktrees, WorktreesOptions } from './worktrees/open-worktrees.js';
export type { PrepareWorktreeInput, PreparedWorktree, WorktreeCheckpoint, WorktreeWorkspace } from './worktrees/prepare-worktree.js';
export type { PreparePeersInput, PreparedPeers } from './worktrees/prepare-peers.js';
