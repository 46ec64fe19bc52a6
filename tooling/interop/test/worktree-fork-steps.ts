/**
 * @module The steps the three tools' workspace tests (`claude-code-`, `codex-`, `pi-workspace.test.ts`)
 * share once the tool has run: dsh's checkpoint records of the session, checked call by call, and the
 * `dsh fork FILE --at AT --worktree` child, checked to hold the checkpoint before the first call.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runDsh } from '@dsh/test-utils';
import { expect } from 'vitest';

type CheckpointRecord = { tool_use_id: string; hook_event_name: string; tree: string; cwd: string };

/** What `dsh fork FILE --worktree --json` printed for a tool's file. */
export type WorktreeChild = {
  session_id: string;
  file: string;
  workspace: string;
  worktree: { dir: string; checkpoint: { tool_use_id: string; hook_event_name: string } };
  resume: string;
  index?: string[][];
};

/**
 * Expects DATA/`folder`/SESSION.jsonl (the tool's checkpoint index) to hold a PreToolUse and a
 * PostToolUse record for each of `callIds` in order, every one taken in `cwd`.
 */
export async function expectCheckpointedCalls(
  at: { data: string; folder: string; sessionId: string; cwd: string },
  callIds: readonly string[],
): Promise<void> {
  const records = (await readFile(join(at.data, at.folder, `${at.sessionId}.jsonl`), 'utf8'))
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as CheckpointRecord);
  expect(records.map((record) => `${record.hook_event_name} ${record.tool_use_id}`)).toEqual(
    callIds.flatMap((id) => [`PreToolUse ${id}`, `PostToolUse ${id}`]),
  );
  expect(new Set(records.map((record) => record.cwd))).toEqual(new Set([at.cwd]));
}

/**
 * Runs `dsh fork FILE --at AT --worktree --json` and expects the child's directory to come from the
 * PreToolUse checkpoint of `callId` (the files before that call ran).
 */
export async function forkWorktreeBefore(
  file: string,
  at: string,
  callId: string,
  options: { data: string; cwd: string; env: Record<string, string | undefined> },
): Promise<WorktreeChild> {
  const forked = await runDsh(['fork', file, '--at', at, '--worktree', '--data', options.data, '--json'], {
    cwd: options.cwd,
    env: options.env,
  });
  expect(forked.code, forked.stderr).toBe(0);
  const child = JSON.parse(forked.stdout) as WorktreeChild;
  expect(child).toMatchObject({
    workspace: 'checkpoint',
    worktree: { checkpoint: { tool_use_id: callId, hook_event_name: 'PreToolUse' } },
  });
  return child;
}
