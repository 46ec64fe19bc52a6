/**
 * SPEC §23 "Claude Code sessions" against the real Claude Code (pinned, offline, fake model server):
 * dsh's hooks run in `-p` mode before and after each tool call with the transcript's `tool_use` id;
 * `dsh fork FILE --at <first call> --worktree` gives a child whose directory holds the files before
 * that call; `claude --resume ID` there reads them, and nothing it writes reaches the original folder.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { printSkip, runDsh, scriptReplies, startModelServer } from '@dsh/test-utils';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { describe, expect, it } from 'vitest';
import { findSessionFiles, installTool, interopSkipReason, jsonlLines, makeInteropHome, runTool, toolEnvironment } from '../src/index.js';
import { expectCheckpointedCalls, forkWorktreeBefore } from './worktree-fork-steps.js';

const skip = interopSkipReason();
if (skip !== undefined) printSkip('interop claude-code workspace', skip);

type Entry = { type?: string; uuid?: string; cwd?: string; sessionId?: string; message?: { content?: unknown } };

function toolUseIds(entries: readonly Entry[]): string[] {
  return entries.flatMap((entry) =>
    entry.type === 'assistant' && Array.isArray(entry.message?.content)
      ? (entry.message.content as { type?: string; id?: string }[])
          .filter((block) => block.type === 'tool_use')
          .map((block) => block.id ?? '')
      : [],
  );
}

/** The text of the tool result the model got for the resumed child's call. */
function childReadResult(requests: readonly Record<string, unknown>[]): unknown {
  for (const request of requests)
    for (const message of (request.messages ?? []) as { content?: unknown }[])
      if (Array.isArray(message.content))
        for (const block of message.content as { type?: string; tool_use_id?: string; content?: unknown }[])
          if (block.type === 'tool_result' && block.tool_use_id === 'toolu_child_read')
            return typeof block.content === 'string' ? block.content.trim() : block.content;
  return undefined;
}

describe.skipIf(skip !== undefined)('Claude Code with dsh hooks: the workspace at the cut (real Claude Code, offline)', () => {
  it('hooks checkpoint each call with its tool_use id; a --worktree fork at the first call resumes on the files before it', async () => {
    await installTool('claude-code');
    await using home = await makeInteropHome();
    const data = join(home.home, 'dsh-data');
    const story = join(home.cwd, 'story.txt');
    await writeFile(story, 'one\n');
    const script = scriptReplies([
      { toolCalls: [{ id: 'toolu_edit_1', name: 'Bash', input: { command: 'echo two > story.txt', description: 'edit' } }] },
      { toolCalls: [{ id: 'toolu_edit_2', name: 'Bash', input: { command: 'echo three >> story.txt', description: 'edit' } }] },
      { text: 'Edited twice.' },
      {
        toolCalls: [
          { id: 'toolu_child_read', name: 'Bash', input: { command: 'cat story.txt; echo child > child.txt', description: 'read' } },
        ],
      },
      { text: 'Child read it.' },
    ]);
    await using server = await startModelServer({ anthropic: script });
    const { env, sessionsDir } = await toolEnvironment('claude-code', { home: home.home, server: server.origin });

    const installed = await runDsh(['hooks', 'install', 'claude-code', '--project', home.cwd, '--data', data], { cwd: home.cwd });
    expect(installed.code, installed.stderr).toBe(0);
    const first = await runTool('claude-code', ['-p', 'edit the story', '--allowedTools', 'Bash', '--output-format', 'json'], {
      cwd: home.cwd,
      env,
    });
    expect(first.code, first.stderr).toBe(0);
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    const [file = ''] = await findSessionFiles(sessionsDir);
    const entries = (await jsonlLines(file)) as Entry[];
    const sessionId = entries.find((entry) => typeof entry.sessionId === 'string')?.sessionId ?? '';
    expect(toolUseIds(entries)).toEqual(['toolu_edit_1', 'toolu_edit_2']);

    await expectCheckpointedCalls({ data, folder: 'claude-checkpoints', sessionId, cwd: home.cwd }, ['toolu_edit_1', 'toolu_edit_2']);

    // The cut: the entry of the first call. Its PreToolUse checkpoint holds the files before it ran.
    const firstCall = entries.find((entry) => toolUseIds([entry]).includes('toolu_edit_1'))?.uuid ?? '';
    const child = await forkWorktreeBefore(file, firstCall, 'toolu_edit_1', { data, cwd: home.cwd, env });
    expect(child.resume).toBe(`cd ${child.worktree.dir} && claude --resume ${child.session_id}`);
    expect(await readFile(join(child.worktree.dir, 'story.txt'), 'utf8')).toBe('one\n');
    const childEntries = (await jsonlLines(child.file)) as Entry[];
    expect(new Set(childEntries.map((entry) => entry.cwd))).toEqual(new Set([child.worktree.dir]));

    // Claude Code resumes the child in its new directory: the model is told the directory moved, and
    // its call reads the files of the cut; what it writes stays in the new directory.
    const before = server.modelRequests('anthropic').length;
    const resumed = await runTool(
      'claude-code',
      ['-p', 'read the story', '--resume', child.session_id, '--allowedTools', 'Bash', '--output-format', 'json'],
      {
        cwd: child.worktree.dir,
        env,
      },
    );
    expect(resumed.code, resumed.stderr).toBe(0);
    const requests = server
      .modelRequests('anthropic')
      .slice(before)
      .map((request) => JSON.stringify(request));
    const firstRequest = requests.find((request) => request.includes('toolu_edit_1')) ?? '';
    expect(firstRequest).toContain("This session's working directory has moved");
    expect(firstRequest).toContain(JSON.stringify(FORKED_WORKSPACE_AT_CUT_SENTENCE).slice(1, -1));
    expect(firstRequest).toContain(JSON.stringify(child.worktree.dir).slice(1, -1));
    expect(childReadResult(server.modelRequests('anthropic').slice(before))).toBe('one');
    expect(await readFile(join(child.worktree.dir, 'child.txt'), 'utf8')).toBe('child\n');
    expect(await readFile(story, 'utf8')).toBe('two\nthree\n');
    await expect(readFile(join(home.cwd, 'child.txt'))).rejects.toThrow();
  });
});
