/**
 * @module open-worktrees
 * The worktree maker of a data folder (SPEC §20, §23): the directories dsh makes for fork children and
 * peers under `DATA/worktrees/`, holding the workspace at a cut — what `dsh fork --worktree`,
 * `dsh peers --worktree`, the host's `worktree: true` requests and the demo share. Every git call goes
 * through `runGit` against the repository dsh recorded (SPEC §27).
 */
import { join } from 'node:path';
import { openWorkspaceStore, type WorkspaceStore } from '../open-workspace-store.js';
import { workspaceAt, type EventLike, type WorkspaceAtSeq } from '../workspace-at.js';
import { WorkspaceError } from '../workspace-error.js';
import { changedFilesAt } from './add-worktrees.js';
import { cleanOrphanForkIntents, forgetForkIntent, removeForkWorktreesOf } from './fork-intent.js';
import { preparePeers, type PreparedPeers, type PreparePeersInput } from './prepare-peers.js';
import { prepareWorktree, type PreparedWorktree, type PrepareWorktreeInput } from './prepare-worktree.js';
import { removeWorktree } from './remove-worktree.js';
import { worktreePath } from './worktree-record.js';

/** Options of `openWorktrees`. */
export type WorktreesOptions = {
  /** The data folder: directories go to `DATA/worktrees/<name>`, records beside them. */
  dataDir: string;
  /** The data folder's checkpoint store (default: `openWorkspaceStore({ dir: DATA/.workspaces.git })`). */
  store?: WorkspaceStore;
};

/** The worktree maker of one data folder. */
export type Worktrees = {
  readonly dataDir: string;
  /** The checkpoint a directory at seq `seq` of `events` holds (`workspaceAt`), or undefined. */
  workspaceAt(events: readonly EventLike[], seq: number): WorkspaceAtSeq | undefined;
  /** Where the directory named `name` goes: `DATA/worktrees/<name>`. */
  path(name: string): string;
  /** One fork child's directory at the cut, its intent recorded first; the child is forked after, with `workspace: 'at-cut'` when it holds a checkpoint. */
  prepare(input: PrepareWorktreeInput): Promise<PreparedWorktree>;
  /** Every peer's directory at one cut (one commit of the checkpoint for all in git). */
  preparePeers(input: PreparePeersInput): Promise<PreparedPeers>;
  /** Removes the worktree `name` and its branch `dsh/<name>`; unless `force`, refuses `WORKTREE_HAS_CHANGES` / `BRANCH_NOT_MERGED`. Returns its path. */
  remove(name: string, options?: { force?: boolean }): Promise<string>;
  /** Removes every directory made for session `childId` (it was deleted); returns their paths. */
  removeFor(childId: string): Promise<string[]>;
  /**
   * Cleans what a killed fork left: every intent whose child `exists` says is absent and whose process
   * is gone (with `tool`, only that tool's intents). Returns their names.
   */
  cleanOrphans(exists: (childId: string) => boolean, options?: { tool?: 'claude-code' | 'codex' | 'pi' }): Promise<string[]>;
  /** Drops the intent of `name` once its child lives outside the store (a Claude Code file): nothing left to clean. */
  forget(name: string): Promise<void>;
  /** What changed (git's view) in the worktree dsh made that holds `cwd`, or undefined when `cwd` is in none. */
  changedFiles(cwd: string | undefined): Promise<string[] | undefined>;
};

/** Opens the worktree maker of `dataDir` (nothing is created until a directory is made). */
export function openWorktrees(options: WorktreesOptions): Worktrees {
  const { dataDir } = options;
  if (typeof dataDir !== 'string' || dataDir === '')
    throw new WorkspaceError('INVALID_OPTION', 'Expected dataDir to be the path of a data folder; got none.');
  let store = options.store;
  const storeOf = (): WorkspaceStore => (store ??= openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') }));
  return {
    dataDir,
    workspaceAt: (events, seq) => workspaceAt(events, seq),
    path: (name) => worktreePath(dataDir, name),
    prepare: (input) => prepareWorktree(dataDir, storeOf(), input),
    preparePeers: (input) => preparePeers(dataDir, storeOf(), input),
    remove: (name, removeOptions) => removeWorktree(dataDir, name, removeOptions?.force === true),
    removeFor: (childId) => removeForkWorktreesOf(dataDir, childId),
    cleanOrphans: (exists, cleanOptions) => cleanOrphanForkIntents(dataDir, exists, cleanOptions?.tool),
    forget: (name) => forgetForkIntent(dataDir, name),
    changedFiles: (cwd) => changedFilesAt(dataDir, cwd),
  };
}
