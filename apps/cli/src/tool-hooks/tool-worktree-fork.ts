/**
 * @module tool-worktree-fork
 * `dsh fork FILE --at REF --worktree` for a tool's session file (SPEC §23), one path for every tool: the
 * workspace at REF (the checkpoint dsh's hooks took, `hook-checkpoint-at-cut.ts`) made a new directory
 * (`hook-fork-worktree.ts`), and the child written where the tool resumes it, its working-directory
 * fields moved there, dsh's closer of the call the checkpoint was taken before saying so, and a user line
 * telling the model where it works now. What differs between the tools' formats is data, one
 * `WorktreeForkLines` a tool (`claude-fork-lines.ts`, `codex-fork-lines.ts`, `pi-fork-lines.ts`).
 * Without a checkpoint: HEAD, with a warning that says so.
 */
import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { NativeFileFork } from 'dsh-import/native-fork';
import { workspaceMovedNoteText } from 'dsh-codec/synthetic-results';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { publishNewFile } from '../native-files.js';
import { hookCheckpointAtCut } from './hook-checkpoint-at-cut.js';
import { readHookCheckpoints } from './hook-checkpoint-index.js';
import { makeHookForkWorktree, type HookForkWorktree } from './hook-fork-worktree.js';
import { HOOK_TOOL_NAMES, type HookTool } from './hook-tools.js';

/** One line of a tool's session file. */
export type ToolLine = Record<string, unknown>;

/** What a tool's file format does in a `--worktree` fork: the only part of the path that differs between tools. */
export type WorktreeForkLines = {
  tool: HookTool;
  /** Where the lines would record the working directory, for `NO_WORKSPACE`: "its entries", "its rollout". */
  recordedIn: string;
  /** The session's working directory as the lines record it. */
  sourceCwd: (lines: readonly ToolLine[]) => string | undefined;
  /** `line` with its working-directory paths under `from` moved under `to`; what the model or a tool said left alone. */
  moveLine: (line: ToolLine, from: string, to: string) => ToolLine;
  /** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after dsh's closer of `callId`, when it holds that closer. */
  withCutSentence: (line: ToolLine, callId: string) => ToolLine;
  /** The user line after the cut that tells the model (`text`) its directory moved; `last`: the parent's last line at the cut. */
  note: (last: ToolLine, at: { sessionId: string; dir: string; branch: string | undefined; text: string; timestamp: string }) => ToolLine;
  /** Where the child's file goes (its folder is made when missing). */
  childFile: (at: { context: CliContext; parentFile: string; fork: NativeFileFork; dir: string }) => string;
  /** The tool's own command that resumes the child, run in its new directory (`file`: where the child was written). */
  resumeArgv: (at: { sessionId: string; file: string }) => string[];
  /**
   * For a tool whose listing does not read its files (Codex): where it lists sessions, and the commands
   * that have it record the child there (undefined when none would).
   */
  listing?: {
    where: string;
    command: (context: CliContext, file: string, sessionId: string) => Promise<{ argv: string[][]; line: string } | undefined>;
  };
};

/** What a `--worktree` fork of a tool's file made: the directory (`hook-fork-worktree.ts`) and the child's file. */
export type ToolWorktreeFork = Omit<HookForkWorktree, 'keep' | 'undo'> & { file: string };

/** The lines of a child's bytes. */
function parseLines(bytes: Uint8Array): ToolLine[] {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
    .toString('utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as ToolLine);
}

/**
 * Makes the directory of `fork`'s child and writes the child where `format` says (`parentFile`, the
 * parent's file, untouched). Refuses `NO_WORKSPACE` (no cwd recorded, or gone), `NOT_A_GIT_REPOSITORY`,
 * `WORKTREE_EXISTS`, `BRANCH_EXISTS`, `GIT_NOT_FOUND`; on any failure what it made is removed.
 */
export async function toolWorktreeFork(
  context: CliContext,
  dataDir: string,
  format: WorktreeForkLines,
  at: { fork: NativeFileFork; parentFile: string; now: number },
): Promise<ToolWorktreeFork> {
  const { fork } = at;
  const { tool } = format;
  const lines = parseLines(fork.bytes);
  const parentId = fork.parentSessionId ?? '?';
  const sourceCwd = format.sourceCwd(lines);
  if (sourceCwd === undefined)
    throw new CliError(
      'NO_WORKSPACE',
      `--worktree needs the working directory of ${HOOK_TOOL_NAMES[tool]} session ${parentId}; ${format.recordedIn} record none.`,
    );
  const records = fork.parentSessionId === undefined ? [] : await readHookCheckpoints(dataDir, tool, fork.parentSessionId);
  const closedIds = new Set(fork.closedCalls.map((call) => call.callId));
  const checkpoint = hookCheckpointAtCut(tool, lines, records, closedIds);
  const made = await makeHookForkWorktree(dataDir, tool, { childId: fork.sessionId, parentId, sourceCwd }, checkpoint);
  const { keep, undo, ...result } = made;
  try {
    const dir = made.dir;
    // The closer of the call the checkpoint was taken before says so (SPEC §23 "Honest to the model").
    const rerunnable =
      checkpoint?.hook_event_name === 'PreToolUse' && closedIds.has(checkpoint.tool_use_id) ? checkpoint.tool_use_id : undefined;
    const moved = lines.map((line) => {
      const there = format.moveLine(line, sourceCwd, dir);
      return rerunnable === undefined ? there : format.withCutSentence(there, rerunnable);
    });
    const note = format.note(lines.at(-1) ?? {}, {
      sessionId: fork.sessionId,
      dir,
      branch: made.branch,
      text: workspaceMovedNoteText(sourceCwd, dir),
      timestamp: new Date(at.now).toISOString(),
    });
    const file = format.childFile({ context, parentFile: at.parentFile, fork, dir });
    await mkdir(dirname(file), { recursive: true });
    await publishNewFile(file, [...moved, note].map((line) => `${JSON.stringify(line)}\n`).join(''));
    await keep();
    return { ...result, file };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
