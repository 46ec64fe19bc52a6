/**
 * @module prepare-worktree
 * One fork child's own directory holding the workspace at the cut (SPEC §23,
 * docs/decisions/2026-12-07-fork-with-workspace.md): in a git checkout a worktree on `dsh/<name>` at a
 * commit of the checkpoint's tree (parent: the HEAD it was taken at, else today's); elsewhere the
 * checkpoint written into `DATA/worktrees/<name>`. No checkpoint: HEAD, and a warning that says so.
 * The intent (child id ↔ directory) is recorded before anything is made, so a kill -9 leaves what
 * `cleanOrphans` finds.
 */
import { existsSync, statSync } from 'node:fs';
import type { WorkspaceStore } from '../open-workspace-store.js';
import type { SkippedPath } from '../store/capture-tree.js';
import { WorkspaceError } from '../workspace-error.js';
import type { WorkspaceAtSeq } from '../workspace-at.js';
import { addWorktrees, checkoutOf, checkWorktreesFree, type BaselineCheckout } from './add-worktrees.js';
import { checkpointCommit } from './checkpoint-commit.js';
import { listForkIntents, undoForkIntent, writeForkIntent, type ForkWorktreeIntent } from './fork-intent.js';
import { worktreePath } from './worktree-record.js';

/** A checkpoint a directory is made from: `workspaceAt`'s result, or any record with a tree (and the HEAD it was taken at). */
export type WorktreeCheckpoint = Pick<WorkspaceAtSeq, 'tree' | 'head' | 'skipped' | 'host' | 'storeDir'> & { seq?: number };

/** What `prepare` is asked for. */
export type PrepareWorktreeInput = {
  /** The source session (named in messages and in the commit dsh makes). */
  sourceId: string;
  /** The source's working directory at the cut; `NO_WORKSPACE` when undefined or gone. */
  sourceCwd: string | undefined;
  /** The workspace at the cut (`workspaceAt`), or undefined: the directory then holds HEAD, with a warning. */
  checkpoint: WorktreeCheckpoint | undefined;
  /** The directory's name: `DATA/worktrees/<name>`, branch `dsh/<name>` (a git branch name, `INVALID_BRANCH_NAME` otherwise). */
  name: string;
  /** The id the child will be forked with: recorded before the directory is made. */
  childId: string;
  /** The commit message of the checkpoint's commit (default: names the source, the checkpoint's seq and the name). */
  message?: string;
  /** `claude-code` / `codex` / `pi`: the child is that tool's session file; its intent is dropped (`forget`) once written, any left is an orphan. */
  tool?: 'claude-code' | 'codex' | 'pi';
};

/** The directory made: `checkpoint` (the files at the cut) or `head` (the source had no checkpoint at or before the cut). */
export type WorktreeWorkspace = {
  workspace: 'checkpoint' | 'head';
  /** The child's cwd (inside the worktree, at the source cwd's place in its checkout). */
  dir: string;
  /** `dsh/<name>`, in a git checkout. */
  branch?: string;
  checkpointSeq?: number;
  skipped?: SkippedPath[];
  /** Set with `head`: says the files are HEAD's, not the cut's. */
  warning?: string;
};

/** A directory made for a child that is not forked yet: `undo` removes it, its branch and its intent. */
export type PreparedWorktree = WorktreeWorkspace & { undo: () => Promise<void> };

/** Where the source runs: `NO_WORKSPACE` when it records no cwd or it no longer exists. */
function checkedCwd(cwd: string | undefined, source: string): string {
  const hint = 'give the child a directory with --cwd DIR instead';
  if (cwd === undefined)
    throw new WorkspaceError('NO_WORKSPACE', `--worktree needs the working directory of ${source}; it records none.`, { hint });
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new WorkspaceError('NO_WORKSPACE', `--worktree needs the working directory of ${source}, ${cwd}; it no longer exists.`, { hint });
  return cwd;
}

/**
 * Refuses `WORKTREE_EXISTS` when another intent (in flight, or killed and not yet cleaned) holds `name`,
 * so that undoing this one never touches another's directory. A tool's child (Claude Code, Codex) has a name derived from
 * its id, so any intent of that name is another fork's.
 */
async function refuseTakenIntent(dataDir: string, input: PrepareWorktreeInput): Promise<void> {
  const { name } = input;
  if (input.tool === undefined) return;
  if ((await listForkIntents(dataDir)).some((other) => other.name === name))
    throw new WorkspaceError(
      'WORKTREE_EXISTS',
      `${worktreePath(dataDir, name)} is taken: expected no directory where the child would go.`,
      { hint: 'fork again (a new child id gives a new name), or pass --session-id UUID' },
    );
}

/**
 * Makes child `childId`'s directory `name` holding `checkpoint`. Refuses `GIT_NOT_FOUND`, `NO_WORKSPACE`,
 * `NOT_A_GIT_REPOSITORY` (outside git without a checkpoint), `INVALID_BRANCH_NAME`, `WORKTREE_EXISTS`,
 * `BRANCH_EXISTS`; on any failure what it made is removed.
 */
export async function prepareWorktree(dataDir: string, store: WorkspaceStore, input: PrepareWorktreeInput): Promise<PreparedWorktree> {
  const { sourceId, childId, name, checkpoint } = input;
  const cwd = checkedCwd(input.sourceCwd, sourceId);
  // Files on another host (PostgreSQL shares the log, not the store): refused before anything is made.
  if (checkpoint !== undefined) await store.require(checkpoint);
  const path = worktreePath(dataDir, name);
  let checkout: BaselineCheckout | undefined;
  try {
    checkout = await checkoutOf(cwd, sourceId, dataDir);
  } catch (error) {
    if (!WorkspaceError.is(error) || error.code !== 'NOT_A_GIT_REPOSITORY' || checkpoint === undefined) throw error;
  }
  const intent: ForkWorktreeIntent = { version: 1, name, childId, kind: checkout === undefined ? 'dir' : 'git', pid: process.pid };
  if (input.tool !== undefined) intent.tool = input.tool;
  const undo = (): Promise<void> => undoForkIntent(dataDir, intent);
  if (checkout === undefined) {
    // Not in a git checkout: the checkpoint's files written into a new folder of the data directory.
    if (existsSync(path))
      throw new WorkspaceError('WORKTREE_EXISTS', `${path} already exists: expected no directory where the child '${name}' would go.`);
    await refuseTakenIntent(dataDir, input);
    await writeForkIntent(dataDir, intent);
    try {
      const { dir } = await store.materialize((checkpoint as WorktreeCheckpoint).tree, path);
      return { ...described('checkpoint', dir, undefined, checkpoint), undo };
    } catch (error) {
      await undo().catch(() => undefined);
      throw error;
    }
  }
  await checkWorktreesFree(checkout, dataDir, [name]);
  await refuseTakenIntent(dataDir, input);
  await writeForkIntent(dataDir, intent);
  try {
    let head = checkout.head;
    if (checkpoint !== undefined) {
      head = await checkpointCommit({
        storeDir: store.dir,
        commonDir: checkout.commonDir,
        tree: checkpoint.tree,
        parent: checkpoint.head ?? checkout.head,
        subdir: checkout.subdir,
        message: input.message ?? `dsh: the workspace of ${sourceId} at seq ${String(checkpoint.seq)} (fork ${name})`,
      });
    }
    const [dir] = await addWorktrees({ ...checkout, head }, dataDir, [name]);
    return {
      ...(checkpoint === undefined
        ? described('head', dir as string, `dsh/${name}`, undefined, sourceId)
        : described('checkpoint', dir as string, `dsh/${name}`, checkpoint)),
      undo,
    };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}

/** The description of a made directory (and, for `head`, the warning). */
export function described(
  workspace: 'checkpoint' | 'head',
  dir: string,
  branch: string | undefined,
  checkpoint?: WorktreeCheckpoint,
  sourceId?: string,
): WorktreeWorkspace {
  const result: WorktreeWorkspace = { workspace, dir };
  if (branch !== undefined) result.branch = branch;
  if (checkpoint?.seq !== undefined) result.checkpointSeq = checkpoint.seq;
  if (checkpoint?.skipped !== undefined) result.skipped = checkpoint.skipped;
  if (workspace === 'head')
    result.warning = `${sourceId ?? 'the source'} has no workspace checkpoint at or before the cut (an older log, an import, or checkpoints off): the worktree holds the repository's HEAD, not the files at the cut.`;
  return result;
}
