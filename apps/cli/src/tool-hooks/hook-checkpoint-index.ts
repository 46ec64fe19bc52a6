/**
 * @module hook-checkpoint-index
 * Where dsh records the checkpoints its hooks take (SPEC §23): one append-only JSONL file per session
 * of the tool, DATA/claude-checkpoints/<session_id>.jsonl (Claude Code), DATA/codex-checkpoints/
 * (Codex) or DATA/pi-checkpoints/ (pi: its `tool_call` recorded as PreToolUse, `tool_result` as
 * PostToolUse), one line per hook call — never inside the
 * workspace or the transcript. The trees themselves live in DATA/.workspaces.git, shared by both.
 */
import { appendFile, mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HookTool } from './hook-tools.js';

/** One checkpoint a hook took: the call it belongs to, when (before or after it), the tree, and what it left out. */
export type HookCheckpointRecord = {
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

/** A session id dsh accepts as a file name: what Claude Code and Codex write (a UUID), or any plain name of letters, digits, `-`, `_`, `.`. */
export const HOOK_SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const FOLDERS: Readonly<Record<HookTool, string>> = {
  'claude-code': 'claude-checkpoints',
  codex: 'codex-checkpoints',
  pi: 'pi-checkpoints',
};

/** The index file of a session of `tool` (`sessionId` already checked against `HOOK_SESSION_ID`). */
export function hookCheckpointIndexPath(dataDir: string, tool: HookTool, sessionId: string): string {
  return join(dataDir, FOLDERS[tool], `${sessionId}.jsonl`);
}

/** Appends one record (one `O_APPEND` write of one line, so concurrent hooks never interleave within a line). */
export async function appendHookCheckpoint(
  dataDir: string,
  tool: HookTool,
  sessionId: string,
  record: HookCheckpointRecord,
): Promise<void> {
  await mkdir(join(dataDir, FOLDERS[tool]), { recursive: true });
  await appendFile(hookCheckpointIndexPath(dataDir, tool, sessionId), `${JSON.stringify(record)}\n`, { mode: 0o600 });
}

const TREE = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

function isRecord(value: unknown): value is HookCheckpointRecord {
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
export async function readHookCheckpoints(dataDir: string, tool: HookTool, sessionId: string): Promise<HookCheckpointRecord[]> {
  if (!HOOK_SESSION_ID.test(sessionId)) return [];
  const text = await readFile(hookCheckpointIndexPath(dataDir, tool, sessionId), 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return '';
    throw error;
  });
  const records: HookCheckpointRecord[] = [];
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
