/**
 * @module codex-worktree-fork
 * `dsh fork ROLLOUT --at REF --worktree` for a Codex rollout (SPEC §23): the workspace at REF (the
 * checkpoint dsh's Codex hooks took, `hook-checkpoint-at-cut.ts`) made a new directory
 * (`hook-fork-worktree.ts`), and the child written beside ROLLOUT (where `codex resume ID` finds it) with
 * its working-directory fields moved there and a user message telling the model so. Without a
 * checkpoint: HEAD, with a warning that says so.
 */
import { join, dirname } from 'node:path';
import type { NativeFileFork } from 'dsh-import/native-fork';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE, workspaceMovedNoteText } from 'dsh-codec/synthetic-results';
import { CliError } from '../cli-error.js';
import { publishNewFile } from '../native-files.js';
import { parseLines } from './claude-worktree-fork.js';
import { hookCheckpointAtCut } from './hook-checkpoint-at-cut.js';
import { readHookCheckpoints } from './hook-checkpoint-index.js';
import { makeHookForkWorktree, movedPath, type HookForkWorktree } from './hook-fork-worktree.js';

/** What a `--worktree` fork of a Codex rollout made: the directory and the child's rollout beside the parent's. */
export type CodexWorktreeFork = Omit<HookForkWorktree, 'keep' | 'undo'> & { file: string };

type Line = Record<string, unknown>;

/** Fields whose strings are what the model or a tool said (history text, arguments, output): never rewritten. */
const SAID = new Set(['content', 'text', 'arguments', 'input', 'output', 'aggregated_output', 'instructions', 'message']);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `value` with every path string under `from` (also as a `file://` URI) moved under `to`, history text left alone. */
function moveWorkingDirectory(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') {
    if (value.startsWith('file://') && movedPath(value.slice(7), from, to) !== value.slice(7))
      return `file://${movedPath(value.slice(7), from, to)}`;
    return movedPath(value, from, to);
  }
  if (Array.isArray(value)) return value.map((item) => moveWorkingDirectory(item, from, to));
  if (!isObject(value)) return value;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, SAID.has(key) ? item : moveWorkingDirectory(item, from, to)]));
}

function payloadOf(line: Line): Record<string, unknown> | undefined {
  return isObject(line.payload) ? line.payload : undefined;
}

/** The session's working directory: the last `turn_context` cwd, else `session_meta`'s. */
function sourceCwdOf(lines: readonly Line[]): string | undefined {
  for (const type of ['turn_context', 'session_meta']) {
    const cwd = payloadOf(lines.findLast((line) => line.type === type && typeof payloadOf(line)?.cwd === 'string') ?? {})?.cwd;
    if (typeof cwd === 'string' && cwd !== '') return cwd;
  }
  return undefined;
}

/** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after dsh's closer output of `callId`, when it is that line. */
function withCutSentence(line: Line, callId: string): Line {
  const payload = payloadOf(line);
  if (line.type !== 'response_item' || payload?.call_id !== callId || typeof payload.output !== 'string') return line;
  if (payload.type !== 'function_call_output' && payload.type !== 'custom_tool_call_output') return line;
  return { ...line, payload: { ...payload, output: `${payload.output} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}` } };
}

/**
 * Makes the directory of `fork`'s child and writes the child beside `parentFile` (which is untouched).
 * Refuses `NO_WORKSPACE` (no cwd recorded, or gone), `NOT_A_GIT_REPOSITORY`, `WORKTREE_EXISTS`,
 * `BRANCH_EXISTS`, `GIT_NOT_FOUND`; on any failure what it made is removed.
 */
export async function codexWorktreeFork(
  dataDir: string,
  parentFile: string,
  fork: NativeFileFork,
  now: number,
): Promise<CodexWorktreeFork> {
  const lines = parseLines(fork.bytes);
  const parentId = fork.parentSessionId ?? '?';
  const sourceCwd = sourceCwdOf(lines);
  if (sourceCwd === undefined)
    throw new CliError('NO_WORKSPACE', `--worktree needs the working directory of Codex session ${parentId}; its rollout records none.`);
  const records = fork.parentSessionId === undefined ? [] : await readHookCheckpoints(dataDir, 'codex', fork.parentSessionId);
  const closedIds = new Set(fork.closedCalls.map((call) => call.callId));
  const checkpoint = hookCheckpointAtCut('codex', lines, records, closedIds);
  const made = await makeHookForkWorktree(dataDir, 'codex', { childId: fork.sessionId, parentId, sourceCwd }, checkpoint);
  const { keep, undo, ...result } = made;
  try {
    const dir = made.dir;
    const rerunnable =
      checkpoint?.hook_event_name === 'PreToolUse' && closedIds.has(checkpoint.tool_use_id) ? checkpoint.tool_use_id : undefined;
    const moved = lines.map((line) => {
      const at = moveWorkingDirectory(line, sourceCwd, dir) as Line;
      return rerunnable === undefined ? at : withCutSentence(at, rerunnable);
    });
    const last = lines.at(-1) ?? {};
    const note: Line = {
      timestamp: new Date(now).toISOString(),
      ...(typeof last.ordinal === 'number' ? { ordinal: last.ordinal + 1 } : {}),
      type: 'response_item',
      payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: workspaceMovedNoteText(sourceCwd, dir) }] },
    };
    const file = join(dirname(parentFile), fork.fileName);
    await publishNewFile(file, [...moved, note].map((line) => `${JSON.stringify(line)}\n`).join(''));
    await keep();
    return { ...result, file };
  } catch (error) {
    await undo().catch(() => undefined);
    throw error;
  }
}
