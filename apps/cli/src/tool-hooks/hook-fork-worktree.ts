/**
 * @module hook-fork-worktree
 * The directory of a `--worktree` fork of a tool's session file (SPEC §23), shared by Claude Code,
 * Codex and pi: the workspace at the cut (the checkpoint dsh's hooks took) made a new directory through
 * dsh-workspace's maker — in a git checkout a worktree on `dsh/<name>` whose commit holds that tree,
 * elsewhere a folder of the data directory — its intent (tool-tagged) recorded first, what a killed
 * fork of the tool left cleaned before. Without a checkpoint: HEAD, with a warning that says so.
 */
import { existsSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { openWorktrees, WorkspaceError, type Worktrees } from 'dsh-workspace';
import { CliError } from '../cli-error.js';
import { physicalPath } from '../commands/claude-project-folder.js';
import { asCliError } from '../fork-worktree-at-cut.js';
import type { HookCheckpointRecord } from './hook-checkpoint-index.js';
import { HOOK_TOOL_NAMES, type HookTool } from './hook-tools.js';

/** The made directory: the child's cwd (physical), the branch, and how to publish or take it away. */
export type HookForkWorktree = {
  /** `checkpoint`: the files at the cut; `head`: the repository's HEAD (no checkpoint at or before the cut). */
  workspace: 'checkpoint' | 'head';
  dir: string;
  branch?: string;
  checkpoint?: { tool_use_id: string; hook_event_name: string; tree: string };
  skipped?: { path: string; reason: string }[];
  warning?: string;
  /** Drops the intent once the child is written (the directory stays, the child's). */
  keep: () => Promise<void>;
  /** Removes the directory, its branch and its intent. */
  undo: () => Promise<void>;
};

/** `path` moved from under `from` to the same place under `to`; any other path as it was. */
export function movedPath(path: string, from: string, to: string): string {
  if (path === from) return to;
  return path.startsWith(`${from}${sep}`) ? join(to, relative(from, path)) : path;
}

/** The directory's name: the tool and 8 characters of the child id that differ between forks (Codex and pi ids start with the time). */
function worktreeName(tool: HookTool, childId: string): string {
  const hex = childId.replace(/-/g, '');
  return tool === 'claude-code' ? `claude-${childId.slice(0, 8)}` : `${tool}-${hex.slice(-8)}`;
}

async function prepare(
  worktrees: Worktrees,
  tool: HookTool,
  input: { name: string; childId: string; sourceCwd: string; parentId: string },
  checkpoint: HookCheckpointRecord | undefined,
): Promise<{ dir: string; branch?: string; undo: () => Promise<void> }> {
  const { name, parentId } = input;
  const source = `${HOOK_TOOL_NAMES[tool]} session ${parentId}`;
  try {
    return await worktrees.prepare({
      sourceId: source,
      sourceCwd: input.sourceCwd,
      // The commit's tree and parent; what it skipped is reported from the record itself.
      checkpoint:
        checkpoint === undefined
          ? undefined
          : { tree: checkpoint.tree, ...(checkpoint.head === undefined ? {} : { head: checkpoint.head }) },
      name,
      childId: input.childId,
      tool,
      ...(checkpoint === undefined
        ? {}
        : { message: `dsh: the workspace of ${source} at ${checkpoint.hook_event_name} ${checkpoint.tool_use_id} (fork ${name})` }),
    });
  } catch (error) {
    if (WorkspaceError.is(error) && error.code === 'NOT_A_GIT_REPOSITORY' && checkpoint === undefined)
      throw new CliError(
        'NOT_A_GIT_REPOSITORY',
        `--worktree needs the files at the cut, but no dsh hook checkpointed ${parentId} at or before it, and ${input.sourceCwd} is no git checkout with a commit to fall back to.`,
        {
          hint: `install the hooks first (\`dsh hooks install ${tool}\`); the sessions ${HOOK_TOOL_NAMES[tool]} runs after that can be forked with their files`,
        },
      );
    throw asCliError(error);
  }
}

/**
 * Makes the directory of `tool` child `childId` (forked from `parentId`, whose cwd was `sourceCwd`)
 * holding `checkpoint`, or HEAD. Refuses `NO_WORKSPACE`, `NOT_A_GIT_REPOSITORY`, `WORKTREE_EXISTS`,
 * `BRANCH_EXISTS`, `GIT_NOT_FOUND`. The caller writes the child, then `keep()`s, or `undo()`es on failure.
 */
export async function makeHookForkWorktree(
  dataDir: string,
  tool: HookTool,
  input: { childId: string; parentId: string; sourceCwd: string },
  checkpoint: HookCheckpointRecord | undefined,
): Promise<HookForkWorktree> {
  const name = worktreeName(tool, input.childId);
  const worktrees = openWorktrees({ dataDir });
  // A fork of this tool killed before its child was written left its intent (only those: a dsh
  // child's is the store's to judge): its directory goes now.
  await worktrees
    .cleanOrphans(() => false, { tool })
    .catch((error: unknown) => {
      throw asCliError(error);
    });
  // Refused before anything is recorded, so that undoing this fork's intent never touches another's directory.
  if (existsSync(worktrees.path(name)))
    throw new CliError('WORKTREE_EXISTS', `${worktrees.path(name)} is taken: expected no directory where the child would go.`, {
      hint: 'fork again (a new child id gives a new name), or pass --session-id UUID',
    });
  const made = await prepare(worktrees, tool, { name, ...input }, checkpoint);
  try {
    const result: HookForkWorktree = {
      workspace: checkpoint === undefined ? 'head' : 'checkpoint',
      dir: await physicalPath(made.dir),
      keep: () => worktrees.forget(name),
      undo: made.undo,
    };
    if (made.branch !== undefined) result.branch = made.branch;
    if (checkpoint !== undefined) {
      result.checkpoint = { tool_use_id: checkpoint.tool_use_id, hook_event_name: checkpoint.hook_event_name, tree: checkpoint.tree };
      if (checkpoint.skipped !== undefined) result.skipped = checkpoint.skipped;
    } else
      result.warning = `no dsh hook checkpointed ${HOOK_TOOL_NAMES[tool]} session ${input.parentId} at or before the cut (hooks not installed then): the worktree holds the repository's HEAD, not the files at the cut.`;
    return result;
  } catch (error) {
    await made.undo().catch(() => undefined);
    throw error;
  }
}
