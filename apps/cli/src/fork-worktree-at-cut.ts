/**
 * @module fork-worktree-at-cut
 * `--worktree` for `dsh fork`, `/branch` and `/fork` (SPEC §23): the child's new directory holds
 * exactly the workspace at the cut (`workspaceAt` over the source's events). In a git checkout it is a
 * worktree on `dsh/<name>` at a commit of the checkpoint's tree (parent: the HEAD it was taken at, else
 * today's); elsewhere the checkpoint written into `DATA/worktrees/<name>`. No checkpoint: HEAD, and a
 * warning that says so. The intent (child id ↔ directory) is recorded before anything is made.
 */
import { existsSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Host } from 'dsh-host';
import { openWorkspaceStore, WorkspaceError, workspaceAt, type EventLike, type SkippedPath } from 'dsh-workspace';
import { checkpointCommit } from './checkpoint-commit.js';
import { CliError } from './cli-error.js';
import { cleanOrphanForkIntents, undoForkIntent, writeForkIntent, type ForkWorktreeIntent } from './fork-worktree-intent.js';
import { addWorktrees, checkoutOf, checkWorktreesFree, type BaselineCheckout } from './peer-worktrees.js';
import { worktreePath } from './worktree-record.js';

/** What a `--worktree` fork made: the directory, its branch (git), the checkpoint it holds, or `head` when the source had none. */
export type ForkWorkspace = {
  workspace: 'checkpoint' | 'head';
  /** The child's cwd (inside the worktree, at the source cwd's place in its checkout). */
  dir: string;
  branch?: string;
  checkpointSeq?: number;
  skipped?: SkippedPath[];
  warning?: string;
};

/** A directory made for a child that is not forked yet: `undo` removes it. */
export type PreparedWorktree = { workspace: ForkWorkspace; intent: ForkWorktreeIntent; undo: () => Promise<void> };

/** Where the source runs: `NO_WORKSPACE` when it records no cwd or it no longer exists. */
function sourceCwd(cwd: string | undefined, source: string): string {
  if (cwd === undefined)
    throw new CliError('NO_WORKSPACE', `--worktree needs the working directory of ${source}; it records none.`, {
      hint: 'give the child a directory with --cwd DIR instead',
    });
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new CliError('NO_WORKSPACE', `--worktree needs the working directory of ${source}, ${cwd}; it no longer exists.`, {
      hint: 'give the child a directory with --cwd DIR instead',
    });
  return cwd;
}

function asCliError(error: unknown): unknown {
  return WorkspaceError.is(error) ? new CliError(error.code, error.message, { cause: error }) : error;
}

/**
 * Makes child `childId`'s directory (named `name`) holding the workspace of `sourceId` at `cut`
 * (`events`: the source's, inherited included; `cwd`: its cwd at the cut). Cleans first what a killed
 * fork left. Refuses `GIT_NOT_FOUND`, `NO_WORKSPACE`, `WORKTREE_EXISTS`, `BRANCH_EXISTS`.
 */
export async function prepareForkWorktree(
  host: Host,
  dataDir: string,
  input: {
    sourceId: string;
    childId: string;
    name: string;
    cut: number;
    cwd: string | undefined;
    events: readonly { seq: number; type: string; data?: unknown }[];
  },
): Promise<PreparedWorktree> {
  const { sourceId, childId, name, cut } = input;
  const existing = new Set((await host.list()).map((item) => item.id));
  await cleanOrphanForkIntents(dataDir, (id) => existing.has(id));
  const cwd = sourceCwd(input.cwd, sourceId);
  const checkpoint = workspaceAt(input.events, cut);
  const storeDir = join(dataDir, '.workspaces.git');
  const path = worktreePath(dataDir, name);
  let checkout;
  try {
    checkout = await checkoutOf(cwd, sourceId, dataDir);
  } catch (error) {
    if (!(error instanceof CliError) || error.code !== 'NOT_A_GIT_REPOSITORY' || checkpoint === undefined) throw error;
  }
  const intent: ForkWorktreeIntent = { version: 1, name, childId, kind: checkout === undefined ? 'dir' : 'git', pid: process.pid };
  const undo = (): Promise<void> => undoForkIntent(dataDir, intent);
  if (checkout === undefined) {
    // Not in a git checkout: the checkpoint's files written into a new folder of the data directory.
    if (existsSync(path))
      throw new CliError('WORKTREE_EXISTS', `${path} already exists: expected no directory where the child '${name}' would go.`);
    await writeForkIntent(dataDir, intent);
    try {
      const store = openWorkspaceStore({ dir: storeDir });
      const { dir } = await store.materialize((checkpoint as { tree: string }).tree, path);
      return { workspace: described('checkpoint', dir, undefined, checkpoint), intent, undo };
    } catch (error) {
      await undo().catch(() => undefined);
      throw asCliError(error);
    }
  }
  await checkWorktreesFree(checkout, dataDir, [name]);
  await writeForkIntent(dataDir, intent);
  try {
    let head = checkout.head;
    if (checkpoint !== undefined) {
      head = await checkpointCommit({
        storeDir,
        commonDir: checkout.commonDir,
        tree: checkpoint.tree,
        parent: checkpoint.head ?? checkout.head,
        subdir: checkout.subdir,
        scratchDir: join(dataDir, 'worktrees', '.forks'),
        message: `dsh: the workspace of ${sourceId} at seq ${checkpoint.seq} (fork ${name})`,
      });
    }
    const [dir] = await addWorktrees({ ...checkout, head }, dataDir, [name]);
    return {
      workspace:
        checkpoint === undefined
          ? described('head', dir as string, `dsh/${name}`, undefined, sourceId)
          : described('checkpoint', dir as string, `dsh/${name}`, checkpoint),
      intent,
      undo,
    };
  } catch (error) {
    await undo().catch(() => undefined);
    throw asCliError(error);
  }
}

function described(
  workspace: 'checkpoint' | 'head',
  dir: string,
  branch: string | undefined,
  checkpoint?: { seq: number; skipped?: SkippedPath[] },
  sourceId?: string,
): ForkWorkspace {
  const result: ForkWorkspace = { workspace, dir };
  if (branch !== undefined) result.branch = branch;
  if (checkpoint !== undefined) result.checkpointSeq = checkpoint.seq;
  if (checkpoint?.skipped !== undefined) result.skipped = checkpoint.skipped;
  if (workspace === 'head')
    result.warning = `${sourceId ?? 'the source'} has no workspace checkpoint at or before the cut (an older log, an import, or checkpoints off): the worktree holds the repository's HEAD, not the files at the cut.`;
  return result;
}

/** The lines `dsh fork --worktree`, `/branch --worktree` and `/fork --worktree` print about the directory. */
export function forkWorkspaceLines(made: ForkWorkspace): string[] {
  const lines: string[] = [];
  if (made.warning !== undefined) lines.push(`dsh: warning: ${made.warning}`);
  const where = made.branch === undefined ? made.dir : `${made.dir} (branch ${made.branch})`;
  lines.push(
    made.workspace === 'checkpoint'
      ? `dsh: the child's files are the workspace at the cut (checkpoint at seq ${String(made.checkpointSeq)}) in ${where}`
      : `dsh: the child's files are HEAD in ${where}`,
  );
  for (const entry of made.skipped ?? []) lines.push(`dsh: not in that checkpoint: ${entry.path} (${entry.reason})`);
  return lines;
}

/** The fields `--json` adds to a `--worktree` fork's result: `workspace` (`checkpoint` or `head`), `worktree` { dir, branch?, checkpointSeq?, skipped? }, `warning`. */
export function forkWorkspaceJson(made: ForkWorkspace): Record<string, unknown> {
  const { workspace, warning, ...worktree } = made;
  return { workspace, worktree, ...(warning === undefined ? {} : { warning }) };
}

/**
 * `dsh peers --worktree`: the checkout whose `head` is a commit of the workspace at `cut` (every peer's
 * branch starts there), or the checkout as is when the baseline has no checkpoint; and the line saying which.
 */
export async function checkoutAtCut(
  checkout: BaselineCheckout,
  dataDir: string,
  sourceId: string,
  cut: number,
  events: readonly EventLike[],
): Promise<{ checkout: BaselineCheckout; line: string }> {
  const checkpoint = workspaceAt(events, cut);
  if (checkpoint === undefined)
    return {
      checkout,
      line: `dsh: warning: ${sourceId} has no workspace checkpoint at or before seq ${String(cut)}: the peers' worktrees hold the repository's HEAD, not the files at the cut.`,
    };
  const scratchDir = join(dataDir, '.workspaces.git', 'dsh', 'tmp');
  await mkdir(scratchDir, { recursive: true });
  try {
    const head = await checkpointCommit({
      storeDir: join(dataDir, '.workspaces.git'),
      commonDir: checkout.commonDir,
      tree: checkpoint.tree,
      parent: checkpoint.head ?? checkout.head,
      subdir: checkout.subdir,
      scratchDir,
      message: `dsh: the workspace of ${sourceId} at seq ${String(checkpoint.seq)} (peers)`,
    });
    const skipped = (checkpoint.skipped ?? []).map((entry) => `${entry.path} (${entry.reason})`);
    return {
      checkout: { ...checkout, head },
      line: `dsh: the peers' files are the workspace at the cut (checkpoint at seq ${String(checkpoint.seq)})${skipped.length === 0 ? '' : `; not in it: ${skipped.join(', ')}`}`,
    };
  } catch (error) {
    throw asCliError(error);
  }
}
