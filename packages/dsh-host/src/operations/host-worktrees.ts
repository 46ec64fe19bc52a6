/**
 * @module host-worktrees
 * What the host needs of a worktree maker (`openWorktrees` from dsh-workspace is one), typed by shape
 * so dsh-host depends on no git code (SPEC §2): a fork child's or a peer's own directory holding the
 * workspace at the cut (SPEC §23), removed again when its child is deleted or never came.
 */
import type { SessionEvent } from 'dsh-codec';
import { HostError } from '../host-error.js';
import { isHostErrorCode } from '../host-error-codes.js';

/** A path a checkpoint did not capture, and why. */
export type HostSkippedPath = { path: string; reason: string };

/** The checkpoint a directory is made from (`workspaceAt`'s result). */
export type HostWorktreeCheckpoint = { seq?: number; tree: string; head?: string; skipped?: readonly HostSkippedPath[] };

/** What a made directory holds: `checkpoint` (the files at the cut) or `head` (no checkpoint at or before the cut: HEAD, with `warning`). */
export type WorktreeInfo = {
  workspace: 'checkpoint' | 'head';
  /** The child's cwd. */
  dir: string;
  /** `dsh/<name>`, when the source's cwd is in a git checkout. */
  branch?: string;
  checkpointSeq?: number;
  skipped?: HostSkippedPath[];
  warning?: string;
};

/** The worktree maker a host is given (`HostOptions.worktrees`). */
export type HostWorktrees = {
  /** The checkpoint of `events` at `seq`: the latest `workspace/checkpoint` at or before it, or undefined. */
  workspaceAt(events: readonly SessionEvent[], seq: number): HostWorktreeCheckpoint | undefined;
  /** One child's directory, its intent recorded first; `undo` removes it (the child could not be forked). */
  prepare(input: {
    sourceId: string;
    sourceCwd: string | undefined;
    checkpoint: HostWorktreeCheckpoint | undefined;
    name: string;
    childId: string;
  }): Promise<WorktreeInfo & { undo: () => Promise<void> }>;
  /** Every peer's directory at one cut. */
  preparePeers(input: {
    sourceId: string;
    sourceCwd: string | undefined;
    checkpoint: HostWorktreeCheckpoint | undefined;
    peers: readonly { name: string; childId?: string }[];
  }): Promise<Omit<WorktreeInfo, 'dir' | 'branch'> & { dirs: { name: string; dir: string; branch?: string }[]; undo: () => Promise<void> }>;
  /** Removes what a killed fork left: directories whose child `exists` says is absent and whose process is gone. */
  cleanOrphans(exists: (childId: string) => boolean): Promise<string[]>;
  /** Removes the directories made for a deleted session. */
  removeFor(childId: string): Promise<string[]>;
};

/** The maker's refusals the host reports with their own code (its status from the host's table). */
const WORKTREE_CODES = new Set([
  'GIT_NOT_FOUND',
  'GIT_FAILED',
  'NOT_A_GIT_REPOSITORY',
  'NO_WORKSPACE',
  'WORKTREE_EXISTS',
  'BRANCH_EXISTS',
  'INVALID_BRANCH_NAME',
]);

/** A refusal of the worktree maker as a `HostError` with the same code and message; anything else unchanged. */
export function worktreeError(error: unknown): unknown {
  if (HostError.is(error) || !(error instanceof Error)) return error;
  const code = (error as { code?: unknown }).code;
  if (typeof code !== 'string' || !WORKTREE_CODES.has(code) || !isHostErrorCode(code)) return error;
  return new HostError(code, error.message, { cause: error });
}

/** `WORKTREES_UNAVAILABLE`: a `worktree: true` request to a host given no worktree maker. */
export function worktreesOf(worktrees: HostWorktrees | undefined): HostWorktrees {
  if (worktrees !== undefined) return worktrees;
  throw new HostError(
    'WORKTREES_UNAVAILABLE',
    'worktree: true needs a worktree maker (HostOptions.worktrees, as `dsh serve` and the demo give it), but this host was started without a data folder for worktrees: fork without worktree, or give each child a directory with config.cwd.',
  );
}

/** The cwd of the latest `session/config` at or before `cut` that sets one. */
export function cwdAtCut(events: readonly SessionEvent[], cut: number): string | undefined {
  let cwd: string | undefined;
  for (const event of events) {
    if (event.seq > cut) break;
    if (event.type !== 'session/config') continue;
    const value = (event.data as { cwd?: unknown }).cwd;
    if (typeof value === 'string') cwd = value;
  }
  return cwd;
}

/** What a response says of a made directory (`undo` left out). */
export function worktreeInfo(made: WorktreeInfo): WorktreeInfo {
  const info: WorktreeInfo = { workspace: made.workspace, dir: made.dir };
  if (made.branch !== undefined) info.branch = made.branch;
  if (made.checkpointSeq !== undefined) info.checkpointSeq = made.checkpointSeq;
  if (made.skipped !== undefined) info.skipped = made.skipped;
  if (made.warning !== undefined) info.warning = made.warning;
  return info;
}
