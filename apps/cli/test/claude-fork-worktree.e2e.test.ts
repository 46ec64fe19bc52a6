/**
 * SPEC §23 "Claude Code sessions" through the real bin, without Claude Code itself (the real one is in
 * tooling/interop/test/claude-code-workspace.test.ts): `dsh checkpoint --from claude-code` fed the
 * hook inputs of a transcript's call, then `dsh fork FILE --at REF --worktree` — the files at REF, the
 * child under Claude Code's project folder for the new directory, its cwd moved and the model told;
 * HEAD with a warning without checkpoints; refusals that make nothing.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { claudeProjectDirName } from '../src/commands/claude-project-folder.js';
import { useCliTestDirs } from './cli-test-dirs.js';
import { runDsh } from '@dsh/test-utils';

const dirs = useCliTestDirs('dsh-cli-claude-fork-worktree', { work: true });

const SESSION = '7c1f0a4e-2b3d-4e5f-8a9b-0c1d2e3f4a5b';

/** A Claude Code session in `cwd`: a prompt, one Edit call (toolu_edit), its result, a final answer. */
function transcript(cwd: string): { text: string; call: string; answer: string } {
  const base = { isSidechain: false, userType: 'external', cwd, sessionId: SESSION, version: '2.1.332', gitBranch: 'main' };
  const lines = [
    {
      ...base,
      parentUuid: null,
      type: 'user',
      message: { role: 'user', content: 'fix the note' },
      uuid: 'u-1',
      timestamp: '2026-12-07T06:00:00.000Z',
    },
    {
      ...base,
      parentUuid: 'u-1',
      type: 'assistant',
      message: {
        id: 'msg_1',
        role: 'assistant',
        model: 'fake',
        content: [{ type: 'tool_use', id: 'toolu_edit', name: 'Edit', input: { file_path: join(cwd, 'notes.md') } }],
      },
      uuid: 'a-1',
      timestamp: '2026-12-07T06:00:01.000Z',
    },
    {
      ...base,
      parentUuid: 'a-1',
      type: 'user',
      message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_edit', content: 'updated' }] },
      uuid: 'r-1',
      timestamp: '2026-12-07T06:00:02.000Z',
    },
    {
      ...base,
      parentUuid: 'r-1',
      type: 'assistant',
      message: { id: 'msg_2', role: 'assistant', model: 'fake', content: [{ type: 'text', text: 'Fixed.' }] },
      uuid: 'a-2',
      timestamp: '2026-12-07T06:00:03.000Z',
    },
  ];
  return { text: lines.map((line) => `${JSON.stringify(line)}\n`).join(''), call: 'a-1', answer: 'a-2' };
}

async function hook(event: 'PreToolUse' | 'PostToolUse', cwd: string): Promise<void> {
  const input = { session_id: SESSION, transcript_path: '', cwd, tool_use_id: 'toolu_edit', hook_event_name: event };
  const result = await runDsh(['checkpoint', '--from', 'claude-code', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
  expect(result).toMatchObject({ code: 0, stderr: '' });
}

type ForkJson = {
  session_id: string;
  file: string;
  workspace: string;
  worktree: { dir: string; branch?: string };
  warning?: string;
  resume: string;
};

async function writeSession(cwd: string): Promise<{ file: string; env: Record<string, string>; call: string; answer: string }> {
  const config = join(dirs.data.path, 'claude');
  const folder = join(config, 'projects', claudeProjectDirName(cwd));
  await mkdir(folder, { recursive: true });
  const { text, call, answer } = transcript(cwd);
  const file = join(folder, `${SESSION}.jsonl`);
  await writeFile(file, text);
  return { file, env: { CLAUDE_CONFIG_DIR: config }, call, answer };
}

describe('dsh fork FILE --at REF --worktree (a Claude Code file)', () => {
  it('gives the child the files at REF: before the call at its tool_use, after it at a later entry', async () => {
    const work = dirs.work.path;
    const { file, env, call, answer } = await writeSession(work);
    await hook('PreToolUse', work);
    await writeFile(join(work, 'notes.md'), 'remember the oat milk\n');
    await hook('PostToolUse', work);
    await writeFile(join(work, 'notes.md'), 'changed after the session\n');

    const before = await runDsh(['fork', file, '--at', call, '--worktree', '--data', dirs.data.path, '--json'], { env });
    expect(before.code, before.stderr).toBe(0);
    const child = JSON.parse(before.stdout) as ForkJson & { worktree: { checkpoint: { hook_event_name: string } } };
    expect(child).toMatchObject({ workspace: 'checkpoint', worktree: { checkpoint: { hook_event_name: 'PreToolUse' } } });
    expect(child.worktree.dir.startsWith(join(dirs.data.path, 'worktrees'))).toBe(true);
    expect(await readFile(join(child.worktree.dir, 'notes.md'), 'utf8')).toBe('remember the milk\n');
    expect(child.file).toBe(
      join(dirs.data.path, 'claude', 'projects', claudeProjectDirName(child.worktree.dir), `${child.session_id}.jsonl`),
    );
    expect(child.resume).toBe(`cd ${child.worktree.dir} && claude --resume ${child.session_id}`);
    const lines = (await readFile(child.file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { cwd?: string; sessionId?: string; type?: string; message?: { content?: unknown } });
    expect(new Set(lines.map((line) => line.cwd))).toEqual(new Set([child.worktree.dir]));
    expect(new Set(lines.map((line) => line.sessionId))).toEqual(new Set([child.session_id]));
    // The call open at the cut is closed by dsh, and its closer says the files are from before it.
    const closer = lines.find(
      (line) => line.type === 'user' && JSON.stringify(line.message?.content).includes('"tool_use_id":"toolu_edit"'),
    );
    expect(JSON.stringify(closer?.message?.content)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
    expect(lines.at(-1)).toMatchObject({ type: 'user' });
    expect(lines.at(-1)?.message?.content).toContain(
      `the inherited history ran in ${JSON.stringify(work)}, and this branch runs in ${JSON.stringify(child.worktree.dir)}`,
    );

    const after = await runDsh(['fork', file, '--at', answer, '--worktree', '--data', dirs.data.path], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('PostToolUse checkpoint of toolu_edit');
    const resumeLine = /resume it with: cd (\S+) && claude --resume (\S+)/.exec(after.stderr);
    expect(resumeLine?.[2]).toBe(after.stdout.trim());
    expect(await readFile(join(resumeLine?.[1] ?? '', 'notes.md'), 'utf8')).toBe('remember the oat milk\n');
    expect(await readFile(join(work, 'notes.md'), 'utf8')).toBe('changed after the session\n');
    // Both children written: no intent is left for a later --worktree fork to take for an orphan.
    expect(await readdir(join(dirs.data.path, 'worktrees', '.forks'))).toEqual([]);
  });

  it('in a git checkout: a worktree on dsh/<name> whose commit holds the checkpoint; without one, HEAD and a warning', async () => {
    const work = dirs.work.path;
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    const { file, env, call } = await writeSession(work);
    const headFork = await runDsh(['fork', file, '--at', call, '--worktree', '--data', dirs.data.path, '--json'], { env });
    expect(headFork.code, headFork.stderr).toBe(0);
    const atHead = JSON.parse(headFork.stdout) as ForkJson;
    expect(atHead).toMatchObject({ workspace: 'head', worktree: { branch: expect.stringMatching(/^dsh\/claude-/) as unknown } });
    expect(atHead.warning).toContain("the worktree holds the repository's HEAD, not the files at the cut");

    await writeFile(join(work, 'notes.md'), 'uncommitted edit\n');
    await hook('PreToolUse', work);
    await writeFile(join(work, 'notes.md'), 'after the call\n');
    const cut = await runDsh(['fork', file, '--at', call, '--worktree', '--data', dirs.data.path, '--json'], { env });
    expect(cut.code, cut.stderr).toBe(0);
    const atCut = JSON.parse(cut.stdout) as ForkJson;
    expect(atCut.workspace).toBe('checkpoint');
    expect(await readFile(join(atCut.worktree.dir, 'notes.md'), 'utf8')).toBe('uncommitted edit\n');
    expect(git('log', '-1', '--format=%P', atCut.worktree.branch ?? '')).toBe(git('rev-parse', 'HEAD'));
    expect(git('diff', '--name-only', 'HEAD', atCut.worktree.branch ?? '')).toBe('notes.md');
    expect(git('status', '--porcelain')).toBe('M notes.md');
  });

  it('refuses a folder that is no git checkout when no hook checkpointed the session, and makes nothing', async () => {
    const { file, env, call } = await writeSession(dirs.work.path);
    const result = await runDsh(['fork', file, '--at', call, '--worktree', '--data', dirs.data.path], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('dsh: NOT_A_GIT_REPOSITORY:');
    expect((await readdir(join(dirs.data.path, 'worktrees')).catch(() => [])).filter((name) => name !== '.forks')).toEqual([]);
    expect(await readdir(join(dirs.data.path, 'worktrees', '.forks')).catch(() => [])).toEqual([]);
    expect(await readdir(join(dirs.data.path, 'claude', 'projects'))).toEqual([claudeProjectDirName(dirs.work.path)]);
  });
});
