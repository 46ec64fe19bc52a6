/**
 * @module claude-checkpoint-index
 * Where dsh records the checkpoints its Claude Code hooks take (SPEC §23): one append-only JSONL file
 * per Claude Code session, DATA/claude-checkpoints/<session_id>.jsonl, one line per hook call — never
 * inside the workspace or the transcript. The trees themselves live in DATA/.workspaces.git.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

/** One checkpoint a hook took: the call it belongs to, when (before or after it), the tree, and what it left out. */
export type ClaudeCheckpointRecord = {
  tool_use_id: string;
  hook_event_name: 'PreToolUse' | 'PostToolUse';
  tree: string;
  /** The workspace captured (the hook's `cwd`). */
  cwd: string;
  /** The checkout's HEAD commit when the checkpoint was taken, when `cwd` is in a git checkout with one. */
  head?: string;
  /** ISO time the record was written. */
  time: string;
  ms: number;
  skipped?: { path: string; reason: string }[];
};

/** A Claude Code session id dsh accepts as a file name: what Claude Code writes (a UUID), or any plain name of letters, digits, `-`, `_`, `.`. */
export const CLAUDE_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The index file of a session (`sessionId` already checked against `CLAUDE_SESSION_ID`). */
export function claudeCheckpointIndexPath(dataDir: string, sessionId: string): string {
  return join(dataDir, 'claude-checkpoints', `${sessionId}.jsonl`);
}

/** Appends one record (one `O_APPEND` write of one line, so concurrent hooks never interleave within a line). */
export async function appendClaudeCheckpoint(dataDir: string, sessionId: string, record: ClaudeCheckpointRecord): Promise<void> {
  await mkdir(join(dataDir, 'claude-checkpoints'), { recursive: true });
  await appendFile(claudeCheckpointIndexPath(dataDir, sessionId), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

const TREE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function isRecord(value: unknown): value is ClaudeCheckpointRecord {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  return (
    typeof record.tool_use_id === 'string' &&
    (record.hook_event_name === 'PreToolUse' || record.hook_event_name === 'PostToolUse') &&
    typeof record.tree === 'string' &&
    TREE.test(record.tree) &&
    typeof record.cwd === 'string'
  );
}

/** Every well-formed record of a session in the order written (a torn or foreign line is passed over); none when there is no file. */
export async function readClaudeCheckpoints(dataDir: string, sessionId: string): Promise<ClaudeCheckpointRecord[]> {
  if (!CLAUDE_SESSION_ID.test(sessionId)) return [];
  const text = await readFile(claudeCheckpointIndexPath(dataDir, sessionId), 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  const records: ClaudeCheckpointRecord[] = [];
  for (const line of text.split('\n')) {
    if (line === '') continue;
    try {
      const parsed: unknown = JSON.parse(line);
      if (isRecord(parsed)) records.push(parsed);
    } catch {
      // A line torn by a killed hook: the checkpoint it described is simply not used.
    }
  }
  return records;
}
