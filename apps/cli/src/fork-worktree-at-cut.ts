/**
 * @module fork-worktree-at-cut
 * `--worktree` for `dsh fork`, `/branch` and `/fork` (SPEC §23): the child's new directory holds
 * exactly the workspace at the cut (`workspaceAt` over the source's events). In a git checkout it is a
 * worktree on `dsh/<name>` at a commit of the checkpoint's tree (parent: the HEAD it was taken at, else
 * today's); elsewhere the checkpoint written into `DATA/worktrees/<name>`. No checkpoint: HEAD, and a
 * warning that says so. The intent (child id ↔ directory) is recorded before anything is made. The
 * maker itself is dsh-workspace's (`openWorktrees`); this module adds the CLI's lines.
 */
import type { Host } from 'dsh-host/core';
import { openWorktrees, WorkspaceError, workspaceAt, type PreparedWorktree as MadeWorktree, type WorktreeWorkspace } from 'dsh-workspace';
import { CliError } from './cli-error.js';

/** What a `--worktree` fork made: the directory, its branch (git), the checkpoint it holds, or `head` when the source had none. */
export type ForkWorkspace = WorktreeWorkspace;

/** A directory made for a child that is not forked yet: `undo` removes it. */
export type PreparedWorktree = { workspace: ForkWorkspace; undo: () => Promise<void> };

/** dsh-workspace's refusal as the CLI reports it (code, message and hint kept). */
export function asCliError(error: unknown): unknown {
  return WorkspaceError.is(error)
    ? new CliError(error.code, error.message, { cause: error, ...(error.hint === undefined ? {} : { hint: error.hint }) })
    : error;
}

/**
 * Makes child `childId`'s directory (named `name`) holding the workspace of `sourceId` at `cut`
 * (`events`: the source's, inherited included; `cwd`: its cwd at the cut) through dsh-workspace's
 * worktree maker. Cleans first what a killed fork left. Refuses `GIT_NOT_FOUND`, `NO_WORKSPACE`,
 * `WORKTREE_EXISTS`, `BRANCH_EXISTS`.
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
  const worktrees = openWorktrees({ dataDir });
  try {
    const existing = new Set((await host.list()).map((item) => item.id));
    await worktrees.cleanOrphans((id) => existing.has(id));
    const made: MadeWorktree = await worktrees.prepare({
      sourceId: input.sourceId,
      sourceCwd: input.cwd,
      checkpoint: workspaceAt(input.events, input.cut),
      name: input.name,
      childId: input.childId,
    });
    const { undo, ...workspace } = made;
    return { workspace, undo };
  } catch (error) {
    throw asCliError(error);
  }
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
