/**
 * @module claude-worktree-fork
 * `dsh fork FILE --at REF --worktree` for a Claude Code file (SPEC §23): the workspace at REF (the
 * checkpoint dsh's hooks took, `hook-checkpoint-at-cut.ts`) made a new directory (`hook-fork-worktree.ts`)
 * and the child written under Claude Code's project folder for that directory, its `cwd` fields moved
 * there and a user line telling the model so. Without a checkpoint: HEAD, with a warning that says so.
 */
import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { NativeFileFork } from 'dsh-import/native-fork';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE, workspaceMovedNoteText } from 'dsh-codec/synthetic-results';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { claudeProjectDirName } from '../commands/claude-project-folder.js';
import { publishNewFile } from '../native-files.js';
import { nativeSessionsDir } from '../native-session-files.js';
import { hookCheckpointAtCut } from './hook-checkpoint-at-cut.js';
import { readHookCheckpoints } from './hook-checkpoint-index.js';
import { makeHookForkWorktree, movedPath, type HookForkWorktree } from './hook-fork-worktree.js';

/** What a `--worktree` fork of a Claude Code file made: the directory (`hook-fork-worktree.ts`) and the child's file under Claude Code's project folder for it. */
export type ClaudeWorktreeFork = Omit<HookForkWorktree, 'keep' | 'undo'> & { file: string };

type Line = Record<string, unknown>;

/** The lines of a child's bytes. */
export function parseLines(bytes: Uint8Array): Line[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Line);
}

/**
 * Makes the directory of `fork`'s child and writes the child under Claude Code's project folder for it (FILE untouched). Refuses
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
  const records = fork.parentSessionId === undefined ? [] : await readHookCheckpoints(dataDir, 'claude-code', fork.parentSessionId);
  const closedIds = new Set(fork.closedCalls.map((call) => call.callId));
  const checkpoint = hookCheckpointAtCut('claude-code', lines, records, closedIds);
  const made = await makeHookForkWorktree(dataDir, 'claude-code', { childId: fork.sessionId, parentId, sourceCwd }, checkpoint);
  const { keep, undo, ...result } = made;
  try {
    const dir = made.dir;
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
    await keep();
    return { ...result, file };
  } catch (error) {
    await undo().catch(() => undefined);
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
