/**
 * @module codex-fork-lines
 * What a Codex rollout does in `dsh fork ROLLOUT --at REF --worktree` (`tool-worktree-fork.ts`, SPEC
 * §23): the working directory is the last `turn_context` (else `session_meta`) cwd and every path under
 * it anywhere in a line moves, history text aside; dsh's closer is a call output item; the note a user
 * message item; and the child goes beside ROLLOUT, where `codex resume ID` finds it.
 */
import { dirname, join } from 'node:path';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec/synthetic-results';
import { codexIndexCommand } from '../codex-index-command.js';
import { movedPath } from './hook-fork-worktree.js';
import type { ToolLine, WorktreeForkLines } from './tool-worktree-fork.js';

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

function payloadOf(line: ToolLine): Record<string, unknown> | undefined {
  return isObject(line.payload) ? line.payload : undefined;
}

/** The session's working directory: the last `turn_context` cwd, else `session_meta`'s. */
function sourceCwdOf(lines: readonly ToolLine[]): string | undefined {
  for (const type of ['turn_context', 'session_meta']) {
    const cwd = payloadOf(lines.findLast((line) => line.type === type && typeof payloadOf(line)?.cwd === 'string') ?? {})?.cwd;
    if (typeof cwd === 'string' && cwd !== '') return cwd;
  }
  return undefined;
}

/** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after dsh's closer output of `callId`, when it is that line. */
function withCutSentence(line: ToolLine, callId: string): ToolLine {
  const payload = payloadOf(line);
  if (line.type !== 'response_item' || payload?.call_id !== callId || typeof payload.output !== 'string') return line;
  if (payload.type !== 'function_call_output' && payload.type !== 'custom_tool_call_output') return line;
  return { ...line, payload: { ...payload, output: `${payload.output} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}` } };
}

/** A Codex rollout's lines in a `--worktree` fork. */
export const CODEX_FORK_LINES: WorktreeForkLines = {
  tool: 'codex',
  recordedIn: 'its rollout',
  sourceCwd: sourceCwdOf,
  moveLine: (line, from, to) => moveWorkingDirectory(line, from, to) as ToolLine,
  withCutSentence,
  note: (last, at) => ({
    timestamp: at.timestamp,
    ...(typeof last.ordinal === 'number' ? { ordinal: last.ordinal + 1 } : {}),
    type: 'response_item',
    payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: at.text }] },
  }),
  childFile: ({ parentFile, fork }) => join(dirname(parentFile), fork.fileName),
  resumeArgv: ({ sessionId }) => ['codex', 'resume', sessionId],
  // Codex lists only the threads its database records: the command that has Codex record this one.
  listing: { where: '`codex resume` and --last', command: codexIndexCommand },
};
