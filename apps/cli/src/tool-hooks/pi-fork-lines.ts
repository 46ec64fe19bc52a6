/**
 * @module pi-fork-lines
 * What a pi session file does in `dsh fork FILE --at REF --worktree` (`tool-worktree-fork.ts`, SPEC
 * §23): the working directory is the header's `cwd` (pi runs `--session FILE` there, whatever directory
 * it starts in); dsh's closer is a `toolResult` message; the note a user message entry chained to the
 * last (version 1 files: one without ids, as their entries are); and the child goes beside FILE, named
 * as pi names its files.
 */
import { randomBytes } from 'node:crypto';
import { dirname, join } from 'node:path';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec/synthetic-results';
import { movedPath } from './hook-fork-worktree.js';
import type { ToolLine, WorktreeForkLines } from './tool-worktree-fork.js';

type Message = { role?: unknown; toolCallId?: unknown; content?: unknown };

function messageOf(line: ToolLine): Message | undefined {
  return line.type === 'message' && typeof line.message === 'object' && line.message !== null ? line.message : undefined;
}

/** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after the text of dsh's closer of `callId`, when it is that line. */
function withCutSentence(line: ToolLine, callId: string): ToolLine {
  const message = messageOf(line);
  if (message?.role !== 'toolResult' || message.toolCallId !== callId || !Array.isArray(message.content)) return line;
  const blocks = message.content as { type?: unknown; text?: unknown }[];
  const last = blocks.findLastIndex((block) => block.type === 'text' && typeof block.text === 'string');
  const content =
    last === -1
      ? [...blocks, { type: 'text', text: FORKED_WORKSPACE_AT_CUT_SENTENCE }]
      : blocks.map((block, at) => (at === last ? { ...block, text: `${String(block.text)} ${FORKED_WORKSPACE_AT_CUT_SENTENCE}` } : block));
  return { ...line, message: { ...message, content } };
}

/** pi's entries in a `--worktree` fork. */
export const PI_FORK_LINES: WorktreeForkLines = {
  tool: 'pi',
  recordedIn: 'its header',
  sourceCwd: ([header]) => (header?.type === 'session' && typeof header.cwd === 'string' && header.cwd !== '' ? header.cwd : undefined),
  moveLine: (line, from, to) => (typeof line.cwd === 'string' ? { ...line, cwd: movedPath(line.cwd, from, to) } : line),
  withCutSentence,
  note: (last, at) => ({
    type: 'message',
    ...(typeof last.id === 'string' ? { id: randomBytes(4).toString('hex'), parentId: last.id } : {}),
    timestamp: at.timestamp,
    message: { role: 'user', content: [{ type: 'text', text: at.text }], timestamp: Date.parse(at.timestamp) },
  }),
  childFile: ({ parentFile, fork }) => join(dirname(parentFile), fork.fileName),
  // pi opens the file, whose header names the new directory.
  resumeArgv: ({ file }) => ['pi', '--session', file],
};
