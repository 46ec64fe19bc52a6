/**
 * SPEC §23 "Codex and pi" against the real Codex 0.169 (pinned, offline, fake model server): dsh's
 * hooks in Codex's hooks.json run before and after each tool call with the rollout's `call_id` as
 * `tool_use_id`; `dsh fork ROLLOUT --at <first call> --worktree` gives a child whose directory holds
 * the files before that call; `codex exec resume ID` there reads them, and nothing it writes reaches
 * the original folder. Codex runs a hook only once its user trusted it: untrusted, the first run takes no
 * checkpoint; the next passes Codex's own `--dangerously-bypass-hook-trust` (what automation that vetted
 * its hooks uses) — dsh trusts nothing.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printSkip, runDsh, scriptReplies, startModelServer } from '@dsh/test-utils';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, jsonlLines, makeInteropHome, runTool, toolEnvironment } from '../src/index.js';
import { expectCheckpointedCalls, forkWorktreeBefore } from './worktree-fork-steps.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop codex workspace', skip);

type RolloutLine = { type?: string; ordinal?: number; payload?: Record<string, unknown> };

const EXEC = ['exec', '--skip-git-repo-check', '--dangerously-bypass-approvals-and-sandbox'];

/** The output Codex sent the model for call `callId` (Responses API `input` items). */
function callOutput(requests: readonly Record<string, unknown>[], callId: string): string | undefined {
  for (const request of requests)
    for (const item of (request.input ?? []) as { type?: string; call_id?: string; output?: unknown }[])
      if (item.type === 'function_call_output' && item.call_id === callId) return JSON.stringify(item.output);
  return undefined;
}

describe.skipIf(skip !== undefined)('Codex with dsh hooks: the workspace at the cut (real Codex 0.169, offline)', () => {
  it('hooks checkpoint each call with its call_id; a --worktree fork at the first call resumes on the files before it', async () => {
    await installTool('codex');
    await using home = await makeInteropHome();
    const data = join(home.home, 'dsh-data');
    const story = join(home.cwd, 'story.txt');
    await writeFile(story, 'one\n');
    const script = scriptReplies([
      { toolCalls: [{ id: 'call_untrusted', name: 'exec_command', input: { cmd: 'echo zero > other.txt' } }] },
      { text: 'Untrusted run done.' },
      { toolCalls: [{ id: 'call_edit_1', name: 'exec_command', input: { cmd: 'echo two > story.txt' } }] },
      { toolCalls: [{ id: 'call_edit_2', name: 'exec_command', input: { cmd: 'echo three >> story.txt' } }] },
      { text: 'Edited twice.' },
      { toolCalls: [{ id: 'call_child_read', name: 'exec_command', input: { cmd: 'cat story.txt; echo child > child.txt' } }] },
      { text: 'Child read it.' },
    ]);
    await using server = await startModelServer({ responses: script });
    const { env, sessionsDir, configDir } = await toolEnvironment('codex', { home: home.home, server: server.origin });

    const installed = await runDsh(['hooks', 'install', 'codex', '--user', '--data', data, '--json'], { cwd: home.cwd, env });
    expect(installed.code, installed.stderr).toBe(0);
    expect(JSON.parse(installed.stdout)).toMatchObject({ settings: join(configDir, 'hooks.json'), added: 2 });
    // Not trusted yet: Codex skips dsh's hooks (without a word in exec) — dsh trusted nothing on its own.
    const untrusted = await runTool('codex', [...EXEC, 'make another file'], { cwd: home.cwd, env });
    expect(untrusted.code, untrusted.stderr).toBe(0);
    expect(await readFile(join(home.cwd, 'other.txt'), 'utf8')).toBe('zero\n');
    expect(existsSync(join(data, 'codex-checkpoints'))).toBe(false);
    expect(await readFile(join(configDir, 'config.toml'), 'utf8')).not.toContain('trusted_hash');
    const untrustedFiles = await findSessionFiles(sessionsDir);
    const first = await runTool('codex', [...EXEC, '--dangerously-bypass-hook-trust', 'edit the story'], { cwd: home.cwd, env });
    expect(first.code, first.stderr).toBe(0);
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    const [file = ''] = (await findSessionFiles(sessionsDir)).filter((path) => !untrustedFiles.includes(path));
    const lines = (await jsonlLines(file)) as RolloutLine[];
    const sessionId = String(lines[0]?.payload?.id);
    const calls = lines.filter((line) => line.type === 'response_item' && line.payload?.type === 'function_call');
    expect(calls.map((line) => line.payload?.call_id)).toEqual(['call_edit_1', 'call_edit_2']);

    await expectCheckpointedCalls({ data, folder: 'codex-checkpoints', sessionId, cwd: home.cwd }, ['call_edit_1', 'call_edit_2']);

    // The cut: the line of the first call. Its PreToolUse checkpoint holds the files before it ran.
    const at = String(calls[0]?.ordinal);
    const child = await forkWorktreeBefore(file, at, 'call_edit_1', { data, cwd: home.cwd, env });
    expect(child.resume).toBe(`cd ${child.worktree.dir} && codex resume ${child.session_id}`);
    expect(child.index).toEqual([
      ['codex', 'archive', child.session_id],
      ['codex', 'unarchive', child.session_id],
    ]);
    expect(await readFile(join(child.worktree.dir, 'story.txt'), 'utf8')).toBe('one\n');
    const childLines = (await jsonlLines(child.file)) as RolloutLine[];
    expect(childLines[0]?.payload).toMatchObject({ id: child.session_id, cwd: child.worktree.dir });
    expect(JSON.stringify(childLines.filter((line) => line.type === 'turn_context').map((line) => line.payload?.cwd))).not.toContain(
      home.cwd,
    );

    // Codex resumes the child in its new directory: the model is told the directory moved, and the call
    // reads the files of the cut; what it writes stays in the new directory.
    const before = server.modelRequests('responses').length;
    const resumed = await runTool('codex', [...EXEC, 'resume', child.session_id, 'read the story'], { cwd: child.worktree.dir, env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const requests = server.modelRequests('responses').slice(before);
    const firstRequest = JSON.stringify(requests[0] ?? {});
    expect(firstRequest).toContain("This session's working directory has moved");
    expect(firstRequest).toContain(JSON.stringify(FORKED_WORKSPACE_AT_CUT_SENTENCE).slice(1, -1));
    expect(firstRequest).toContain(JSON.stringify(child.worktree.dir).slice(1, -1));
    const read = callOutput(requests, 'call_child_read') ?? '';
    expect(read).toContain('one');
    expect(read).not.toContain('two');
    expect(await readFile(join(child.worktree.dir, 'child.txt'), 'utf8')).toBe('child\n');
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    await expect(readFile(join(home.cwd, 'child.txt'))).rejects.toThrow();
  });
});
