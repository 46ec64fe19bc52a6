/**
 * @module claude-fork-lines
 * What a Claude Code file does in `dsh fork FILE --at REF --worktree` (`tool-worktree-fork.ts`, SPEC
 * §23): the working directory is each entry's `cwd`, dsh's closer is a `tool_result` block of a user
 * entry, the note a user entry chained to the last, and the child goes under Claude Code's project
 * folder for the new directory.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec/synthetic-results';
import { claudeProjectDirName } from '../commands/claude-project-folder.js';
import { nativeSessionsDir } from '../native-session-files.js';
import { movedPath } from './hook-fork-worktree.js';
import type { ToolLine, WorktreeForkLines } from './tool-worktree-fork.js';

/** `line` with FORKED_WORKSPACE_AT_CUT_SENTENCE after the text of its `tool_result` for `callId` (dsh's closer), when it has one. */
function withCutSentence(line: ToolLine, callId: string): ToolLine {
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

/** Claude Code's entries in a `--worktree` fork. */
export const CLAUDE_FORK_LINES: WorktreeForkLines = {
  tool: 'claude-code',
  recordedIn: 'its entries',
  sourceCwd: (lines) => lines.findLast((line) => typeof line.cwd === 'string' && line.cwd !== '')?.cwd as string | undefined,
  moveLine: (line, from, to) => (typeof line.cwd === 'string' ? { ...line, cwd: movedPath(line.cwd, from, to) } : line),
  withCutSentence,
  note: (last, at) => ({
    parentUuid: typeof last.uuid === 'string' ? last.uuid : null,
    isSidechain: false,
    userType: 'external',
    cwd: at.dir,
    sessionId: at.sessionId,
    ...(typeof last.version === 'string' ? { version: last.version } : {}),
    ...(typeof last.gitBranch === 'string' ? { gitBranch: at.branch ?? last.gitBranch } : {}),
    type: 'user',
    message: { role: 'user', content: at.text },
    uuid: randomUUID(),
    timestamp: at.timestamp,
  }),
  childFile: ({ context, fork, dir }) => join(nativeSessionsDir(context, 'claude'), claudeProjectDirName(dir), `${fork.sessionId}.jsonl`),
  resumeArgv: ({ sessionId }) => ['claude', '--resume', sessionId],
};
