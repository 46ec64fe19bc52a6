/**
 * SPEC §23 "Codex and pi" through the real bin, without Codex itself (the real Codex 0.169 is in
 * tooling/interop/test/codex-workspace.test.ts): `dsh hooks install|remove codex` edits Codex's
 * hooks.json (merged, exact removal, the trust step named), `dsh checkpoint --from codex` fed the hook
 * inputs of a rollout's call (hostile ones refused with exit 0), then `dsh fork ROLLOUT --at REF
 * --worktree` — the files at REF, the child beside the rollout with its cwd moved and the model told.
 */
import { execFileSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { useCliTestDirs } from './cli-test-dirs.js';
import { runDsh } from '@dsh/test-utils';

const dirs = useCliTestDirs('dsh-cli-codex-hooks', { work: true });

const SESSION = '01a25067-8066-79b1-8ac1-3c02672aef2e';

type Line = { timestamp: string; ordinal: number; type: string; payload: Record<string, unknown> };

/** A Codex 0.169 rollout in `cwd`: meta, turn context, a prompt, one exec_command call (call_edit), its output, an answer. */
function rollout(cwd: string): string {
  const at = (ordinal: number, type: string, payload: Record<string, unknown>): Line => ({
    timestamp: `2026-12-07T06:00:0${String(ordinal)}.000Z`,
    ordinal,
    type,
    payload,
  });
  const lines = [
    at(0, 'session_meta', { id: SESSION, timestamp: '2026-12-07T06:00:00.000Z', cwd, originator: 'codex_exec', cli_version: '0.169.0' }),
    at(1, 'turn_context', { turn_id: 't-1', cwd, model: 'fake-model', approval_policy: 'never' }),
    at(2, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the note' }] }),
    at(3, 'response_item', { type: 'function_call', name: 'exec_command', arguments: '{"cmd":"edit"}', call_id: 'call_edit' }),
    at(4, 'event_msg', { type: 'item_completed', item: { type: 'CommandExecution', id: 'call_edit', cwd: `file://${cwd}` } }),
    at(5, 'response_item', { type: 'function_call_output', call_id: 'call_edit', output: 'updated' }),
    at(6, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Fixed.' }] }),
  ];
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}

async function hook(event: 'PreToolUse' | 'PostToolUse', cwd: string): Promise<void> {
  const input = {
    session_id: SESSION,
    turn_id: 't-1',
    transcript_path: null,
    cwd,
    hook_event_name: event,
    model: 'fake-model',
    permission_mode: 'bypassPermissions',
    tool_name: 'Bash',
    tool_input: { command: 'edit' },
    tool_use_id: 'call_edit',
  };
  const result = await runDsh(['checkpoint', '--from', 'codex', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
  expect(result).toMatchObject({ code: 0, stderr: '', stdout: '' });
}

async function writeRollout(cwd: string): Promise<{ file: string; env: Record<string, string> }> {
  const home = join(dirs.data.path, 'codex-home');
  const folder = join(home, 'sessions', '2026', '12', '07');
  await mkdir(folder, { recursive: true });
  const file = join(folder, `rollout-2026-12-07T06-00-00-${SESSION}.jsonl`);
  await writeFile(file, rollout(cwd));
  return { file, env: { CODEX_HOME: home } };
}

type ForkJson = {
  session_id: string;
  file: string;
  workspace: string;
  worktree: { dir: string; branch?: string; checkpoint?: { hook_event_name: string; tool_use_id: string } };
  warning?: string;
  resume: string;
  index?: string[][];
};

describe('dsh hooks install|remove codex', () => {
  it("merges two hooks into the project's .codex/hooks.json beside others, names the trust step, removes exactly them", async () => {
    const hooksFile = join(dirs.work.path, '.codex', 'hooks.json');
    const theirs = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] };
    await mkdir(join(dirs.work.path, '.codex'));
    await writeFile(hooksFile, JSON.stringify({ description: 'team hooks', hooks: theirs }));
    const args = ['hooks', 'install', 'codex', '--project', dirs.work.path, '--data', dirs.data.path];
    const first = await runDsh([...args, '--json']);
    expect(first.code, first.stderr).toBe(0);
    const answer = JSON.parse(first.stdout) as { command: string; added: number; trust: string };
    expect(answer).toMatchObject({ added: 2, trust: expect.stringContaining('/hooks') as unknown });
    expect(answer.command).toContain(`checkpoint --from codex --data ${dirs.data.path}`);
    const installed = JSON.parse(await readFile(hooksFile, 'utf8')) as {
      description: string;
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(installed.description).toBe('team hooks');
    expect(installed.hooks.PreToolUse?.map((group) => group.hooks[0]?.command)).toEqual(['echo mine', answer.command]);
    expect(installed.hooks.PostToolUse?.map((group) => group.hooks[0]?.command)).toEqual([answer.command]);
    const text = await runDsh(args);
    expect(text.stdout).toContain('already installed: nothing changed');
    expect(text.stdout).toContain('dsh does not trust them for you');

    const removed = await runDsh(['hooks', 'remove', 'codex', '--project', dirs.work.path, '--data', dirs.data.path, '--json']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: 2 });
    expect(JSON.parse(await readFile(hooksFile, 'utf8'))).toEqual({ description: 'team hooks', hooks: theirs });
  });

  it('--user writes hooks.json in $CODEX_HOME; another tool name is refused USAGE', async () => {
    const home = join(dirs.data.path, 'codex-home');
    const result = await runDsh(['hooks', 'install', 'codex', '--user'], { env: { CODEX_HOME: home, DSH_HOME: dirs.data.path } });
    expect(result.code, result.stderr).toBe(0);
    const written = JSON.parse(await readFile(join(home, 'hooks.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(written.hooks)).toEqual(['PreToolUse', 'PostToolUse']);
    const other = await runDsh(['hooks', 'install', 'gemini', '--user', '--data', dirs.data.path]);
    expect(other.code).toBe(2);
    expect(other.stderr).toContain("expected claude-code, codex, pi, received 'gemini'");
  });
});

describe('dsh checkpoint --from codex', () => {
  it('refuses hostile hook input with a note and exit 0, recording nothing', async () => {
    const base = { session_id: SESSION, cwd: dirs.work.path, hook_event_name: 'PreToolUse', tool_use_id: 'call_1' };
    const cases: [Record<string, unknown>, string][] = [
      [{ ...base, cwd: 'relative/dir' }, 'expected cwd to be an absolute path'],
      [{ ...base, session_id: '../../etc/passwd' }, 'expected session_id to be a session id'],
      [{ ...base, tool_use_id: 'call\n{"forged":true}' }, 'expected tool_use_id to be a call id'],
      [{ ...base, cwd: join(dirs.work.path, 'gone') }, 'NO_WORKSPACE'],
    ];
    for (const [input, said] of cases) {
      const result = await runDsh(['checkpoint', '--from', 'codex', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
      expect(result.code).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain(said);
      expect(result.stderr).toContain('Codex goes on');
    }
    expect(await readdir(join(dirs.data.path, 'codex-checkpoints')).catch(() => [])).toEqual([]);
  });
});

describe('dsh fork ROLLOUT --at REF --worktree (a Codex rollout)', () => {
  it('gives the child the files at REF beside the rollout: before the call at its function_call, after it at its output', async () => {
    const work = dirs.work.path;
    const { file, env } = await writeRollout(work);
    await hook('PreToolUse', work);
    await writeFile(join(work, 'notes.md'), 'remember the oat milk\n');
    await hook('PostToolUse', work);
    await writeFile(join(work, 'notes.md'), 'changed after the session\n');

    const before = await runDsh(['fork', file, '--at', '3', '--worktree', '--data', dirs.data.path, '--json'], { env });
    expect(before.code, before.stderr).toBe(0);
    const child = JSON.parse(before.stdout) as ForkJson;
    expect(child).toMatchObject({
      workspace: 'checkpoint',
      worktree: { checkpoint: { hook_event_name: 'PreToolUse', tool_use_id: 'call_edit' } },
    });
    expect(await readFile(join(child.worktree.dir, 'notes.md'), 'utf8')).toBe('remember the milk\n');
    expect(child.file.startsWith(join(dirs.data.path, 'codex-home', 'sessions', '2026', '12', '07', 'rollout-'))).toBe(true);
    expect(child.resume).toBe(`cd ${child.worktree.dir} && codex resume ${child.session_id}`);
    expect(child.index).toEqual([
      ['codex', 'archive', child.session_id],
      ['codex', 'unarchive', child.session_id],
    ]);
    const lines = (await readFile(child.file, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    expect(lines[0]?.payload).toMatchObject({ id: child.session_id, cwd: child.worktree.dir });
    expect(lines[1]?.payload).toMatchObject({ cwd: child.worktree.dir });
    expect(JSON.stringify(lines.slice(0, -1))).not.toContain(work);
    // The call open at the cut is closed by dsh, and its closer says the files are from before it.
    const closer = lines.find((line) => line.payload.type === 'function_call_output' && line.payload.call_id === 'call_edit');
    expect(String(closer?.payload.output)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
    expect(lines.at(-1)).toMatchObject({ type: 'response_item', payload: { type: 'message', role: 'user' } });
    expect(JSON.stringify(lines.at(-1)?.payload)).toContain(
      JSON.stringify(
        `the inherited history ran in ${JSON.stringify(work)}, and this branch runs in ${JSON.stringify(child.worktree.dir)}`,
      ).slice(1, -1),
    );

    const after = await runDsh(['fork', file, '--at', '6', '--worktree', '--data', dirs.data.path], { env });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stderr).toContain('PostToolUse checkpoint of call_edit');
    const resumeLine = /resume it with: cd (\S+) && codex resume (\S+)/.exec(after.stderr);
    expect(resumeLine?.[2]).toBe(after.stdout.trim());
    expect(after.stderr).toContain('list it in `codex resume` and --last: ');
    expect(await readFile(join(resumeLine?.[1] ?? '', 'notes.md'), 'utf8')).toBe('remember the oat milk\n');
    expect(await readFile(join(work, 'notes.md'), 'utf8')).toBe('changed after the session\n');
    expect(await readdir(join(dirs.data.path, 'worktrees', '.forks'))).toEqual([]);
  });

  it('in a git checkout: a worktree on dsh/codex-<id>; two forks within a second get two directories', async () => {
    const work = dirs.work.path;
    const git = (...args: string[]): string =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: work, encoding: 'utf8' }).trim();
    git('init', '-q', '-b', 'main');
    git('add', '.');
    git('commit', '-q', '-m', 'base');
    const { file, env } = await writeRollout(work);
    await writeFile(join(work, 'notes.md'), 'uncommitted edit\n');
    await hook('PreToolUse', work);
    const forks = await Promise.all(
      [1, 2].map(() => runDsh(['fork', file, '--at', '3', '--worktree', '--data', dirs.data.path, '--json'], { env })),
    );
    const made = forks.map((result) => {
      expect(result.code, result.stderr).toBe(0);
      return JSON.parse(result.stdout) as ForkJson;
    });
    expect(new Set(made.map((child) => child.worktree.dir)).size).toBe(2);
    for (const child of made) {
      expect(child.worktree.branch).toMatch(/^dsh\/codex-[0-9a-f]{8}$/);
      expect(await readFile(join(child.worktree.dir, 'notes.md'), 'utf8')).toBe('uncommitted edit\n');
      expect(git('diff', '--name-only', 'HEAD', child.worktree.branch ?? '')).toBe('notes.md');
    }
  });
});
