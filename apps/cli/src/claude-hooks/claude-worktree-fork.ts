/**
 * @module claude-worktree-fork
 * `dsh fork FILE --at REF --worktree` for a Claude Code file (SPEC §23): the workspace at REF (the
 * checkpoint dsh's hooks took, `claude-checkpoint-at-cut.ts`) made a new directory — in a git checkout
 * a worktree on `dsh/<name>` whose commit holds that tree, elsewhere a folder of the data directory —
 * and the child written under Claude Code's project folder for that directory, its `cwd` fields moved
 * there and a user line telling the model so. Without a checkpoint: HEAD, with a warning that says so.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import type { NativeFileFork } from 'dsh-import/native-fork';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE, workspaceMovedNoteText } from 'dsh-codec/synthetic-results';
import { openWorktrees, WorkspaceError, type Worktrees } from 'dsh-workspace';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { claudeProjectDirName, physicalPath } from '../commands/claude-project-folder.js';
import { publishNewFile } from '../native-files.js';
import { nativeSessionsDir } from '../native-session-files.js';
import { asCliError } from '../fork-worktree-at-cut.js';
import { claudeCheckpointAtCut } from './claude-checkpoint-at-cut.js';
import { readClaudeCheckpoints, type ClaudeCheckpointRecord } from './claude-checkpoint-index.js';

/** What a `--worktree` fork of a Claude Code file made. */
export type ClaudeWorktreeFork = {
  /** `checkpoint`: the files at the cut; `head`: the repository's HEAD (no checkpoint at or before the cut). */
  workspace: 'checkpoint' | 'head';
  /** The child's working directory. */
  dir: string;
  branch?: string;
  /** The child's session file (under Claude Code's project folder for `dir`). */
  file: string;
  checkpoint?: { tool_use_id: string; hook_event_name: string; tree: string };
  skipped?: { path: string; reason: string }[];
  warning?: string;
};

type Line = Record<string, unknown>;

function parseLines(bytes: Uint8Array): Line[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

/** `path` moved from under `from` to the same place under `to`; any other path as it was. */
function movedPath(path: string, from: string, to: string): string {
  if (path === from) return to;
  return path.startsWith(`${from}${sep}`) ? join(to, relative(from, path)) : path;
}

/** The made directory: the child's cwd, the branch, and how to take it away again (its intent included). */
type Made = { dir: string; branch?: string; undo: () => Promise<void> };

/** The directory at the checkpoint (or HEAD) through dsh-workspace's maker, its intent (tool `claude-code`) recorded first. */
async function makeWorkspace(
  worktrees: Worktrees,
  input: { name: string; childId: string; sourceCwd: string; parentId: string },
  checkpoint: ClaudeCheckpointRecord | undefined,
): Promise<Made> {
  const { name, parentId } = input;
  try {
    return await worktrees.prepare({
      sourceId: `Claude Code session ${parentId}`,
      sourceCwd: input.sourceCwd,
      // The commit's tree and parent; what it skipped is reported from the record itself.
      checkpoint:
        checkpoint === undefined
          ? undefined
          : { tree: checkpoint.tree, ...(checkpoint.head === undefined ? {} : { head: checkpoint.head }) },
      name,
      childId: input.childId,
      tool: 'claude-code',
      ...(checkpoint === undefined
        ? {}
        : {
            message: `dsh: the workspace of Claude Code session ${parentId} at ${checkpoint.hook_event_name} ${checkpoint.tool_use_id} (fork ${name})`,
          }),
    });
  } catch (error) {
    if (WorkspaceError.is(error) && error.code === 'NOT_A_GIT_REPOSITORY' && checkpoint === undefined)
      throw new CliError(
        'NOT_A_GIT_REPOSITORY',
        `--worktree needs the files at the cut, but no dsh hook checkpointed ${parentId} at or before it, and ${input.sourceCwd} is no git checkout with a commit to fall back to.`,
        {
          hint: 'install the hooks first (`dsh hooks install claude-code`); the sessions Claude Code runs after that can be forked with their files',
        },
      );
    throw asCliError(error);
  }
}

/**
 * Makes the directory of `fork`'s child and writes the child there (FILE untouched). Refuses
 * `NO_WORKSPACE` (no cwd recorded, or gone), `NOT_A_GIT_REPOSITORY`, `WORKTREE_EXISTS`, `BRANCH_EXISTS`,
 * `GIT_NOT_FOUND`; on any failure what it made is removed.
 */
export async function claudeWorktreeFork(
  context: CliContext,
  dataDir: string,
  fork: NativeFileFork,
  now: number,
): Promise<ClaudeWorktreeFork> {
  const lines = parseLines(fork.bytes);
  const sourceCwd = lines.findLast((line) => typeof line.cwd === 'string' && line.cwd !== '')?.cwd as string | undefined;
  const parentId = fork.parentSessionId ?? '?';
  if (sourceCwd === undefined)
    throw new CliError(
      'NO_WORKSPACE',
      `--worktree needs the working directory of Claude Code session ${parentId}; its entries record none.`,
    );
  const records = fork.parentSessionId === undefined ? [] : await readClaudeCheckpoints(dataDir, fork.parentSessionId);
  const closedIds = new Set(fork.closedCalls.map((call) => call.callId));
  const checkpoint = claudeCheckpointAtCut(lines, records, closedIds);
  const name = `claude-${fork.sessionId.slice(0, 8)}`;
  const worktrees = openWorktrees({ dataDir });
  // The intent first (H9's record of which child a directory is for): a kill before the child is
  // published leaves it, with a dead pid, for the next --worktree fork to clean; it goes once the child is written.
  // A Claude Code fork killed before its child was written left its intent (only those: a dsh child's is the store's to judge): its directory goes now.
  await worktrees
    .cleanOrphans(() => false, { tool: 'claude-code' })
    .catch((error: unknown) => {
      throw asCliError(error);
    });
  // Refused before anything is recorded, so that undoing this fork's intent never touches another's directory.
  if (existsSync(worktrees.path(name)))
    throw new CliError('WORKTREE_EXISTS', `${worktrees.path(name)} is taken: expected no directory where the child would go.`, {
      hint: 'fork again (a new child id gives a new name), or pass --session-id UUID',
    });
  const made = await makeWorkspace(worktrees, { name, childId: fork.sessionId, sourceCwd, parentId }, checkpoint);
  try {
    const dir = await physicalPath(made.dir);
    // The closer of the call the checkpoint was taken before says so (SPEC §23 "Honest to the model").
    const rerunnable = checkpoint?.hook_event_name === 'PreToolUse' ? checkpoint.tool_use_id : undefined;
    const moved = lines.map((line) => {
      const at = typeof line.cwd === 'string' ? { ...line, cwd: movedPath(line.cwd, sourceCwd, dir) } : line;
      return rerunnable !== undefined && closedIds.has(rerunnable) ? withCutSentence(at, rerunnable) : at;
    });
    const last = lines.at(-1) ?? {};
    const note: Line = {
      parentUuid: typeof last.uuid === 'string' ? last.uuid : null,
      isSidechain: false,
      userType: 'external',
      cwd: dir,
      sessionId: fork.sessionId,
      ...(typeof last.version === 'string' ? { version: last.version } : {}),
      ...(typeof last.gitBranch === 'string' ? { gitBranch: made.branch ?? last.gitBranch } : {}),
      type: 'user',
      message: { role: 'user', content: workspaceMovedNoteText(sourceCwd, dir) },
      uuid: randomUUID(),
      timestamp: new Date(now).toISOString(),
    };
    const folder = join(nativeSessionsDir(context, 'claude'), claudeProjectDirName(dir));
    await mkdir(folder, { recursive: true });
    const file = join(folder, `${fork.sessionId}.jsonl`);
    await publishNewFile(file, [...moved, note].map((line) => `${JSON.stringify(line)}\n`).join(''));
    await worktrees.forget(name);
    const result: ClaudeWorktreeFork = { workspace: checkpoint === undefined ? 'head' : 'checkpoint', dir, file };
    if (made.branch !== undefined) result.branch = made.branch;
    if (checkpoint !== undefined) {
      result.checkpoint = { tool_use_id: checkpoint.tool_use_id, hook_event_name: checkpoint.hook_event_name, tree: checkpoint.tree };
      if (checkpoint.skipped !== undefined) result.skipped = checkpoint.skipped;
    } else
      result.warning = `no dsh hook checkpointed Claude Code session ${parentId} at or before the cut (hooks not installed then): the worktree holds the repository's HEAD, not the files at the cut.`;
    return result;
  } catch (error) {
    await made.undo().catch(() => undefined);
    throw error;
  }
}

/** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after the text of its `tool_result` for `callId` (dsh's closer), when it has one. */
function withCutSentence(line: Line, callId: string): Line {
  const message = line.message as { content?: unknown } | undefined;
  if (line.type !== 'user' || !Array.isArray(message?.content)) return line;
  const blocks = message.content as { type?: unknown; tool_use_id?: unknown; content?: unknown }[];
  const index = blocks.findIndex(
    (block) => block.type === 'tool_result' && block.tool_use_id === callId && typeof block.content === 'string',
  );
  if (index === -1) return line;
  const content = blocks.map((block, at) =>
    at === index ? { ...block, content: `${String(block.content)} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}` } : block,
  );
  return { ...line, message: { ...message, content } };
}
