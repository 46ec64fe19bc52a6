/**
 * SPEC §23 "Claude Code sessions" through the real bin: `dsh hooks install|remove claude-code` edits
 * Claude Code's settings file (merged, idempotent, exact removal, malformed refused with nothing
 * written), and `dsh checkpoint --from claude-code` checkpoints the hook's cwd, exit 0 whatever comes.
 */
import { execFileSync } from 'node:child_process';
import { chmod, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkspaceStore } from 'dsh-workspace';
import { useCliTestDirs } from './cli-test-dirs.js';
import { runDsh } from '@dsh/test-utils';

const dirs = useCliTestDirs('dsh-cli-claude-hooks', { work: true });

const theirs = { PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'echo mine' }] }] };

describe('dsh hooks install|remove claude-code', () => {
  it('merges two hooks into the project settings, keeps the mode, adds nothing the second time, removes exactly them', async () => {
    const settings = join(dirs.work.path, '.claude', 'settings.json');
    await mkdir(join(dirs.work.path, '.claude'));
    await writeFile(settings, JSON.stringify({ model: 'opus', hooks: theirs }));
    await chmod(settings, 0o640);
    const args = ['hooks', 'install', 'claude-code', '--project', dirs.work.path, '--data', dirs.data.path, '--json'];
    const first = await runDsh(args);
    expect(first.code).toBe(0);
    const { command, added } = JSON.parse(first.stdout) as { command: string; added: number };
    expect(added).toBe(2);
    expect(command).toContain(`checkpoint --from claude-code --data ${dirs.data.path}`);
    expect(command).toMatch(/^\S*node\S* \S*bin\/dsh\.js /);
    const installed = JSON.parse(await readFile(settings, 'utf8')) as {
      model: string;
      hooks: Record<string, { hooks: { command: string }[] }[]>;
    };
    expect(installed.model).toBe('opus');
    expect(installed.hooks.PreToolUse?.map((group) => group.hooks[0]?.command)).toEqual(['echo mine', command]);
    expect(installed.hooks.PostToolUse?.map((group) => group.hooks[0]?.command)).toEqual([command]);
    expect((await stat(settings)).mode & 0o777).toBe(0o640);

    const again = await runDsh(args);
    expect(JSON.parse(again.stdout)).toMatchObject({ added: 0 });
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual(installed);

    const removed = await runDsh(['hooks', 'remove', 'claude-code', '--project', dirs.work.path, '--data', dirs.data.path, '--json']);
    expect(JSON.parse(removed.stdout)).toMatchObject({ removed: 2 });
    expect(JSON.parse(await readFile(settings, 'utf8'))).toEqual({ model: 'opus', hooks: theirs });
  });

  it('--user writes settings.json in $CLAUDE_CONFIG_DIR, creating it', async () => {
    const config = join(dirs.data.path, 'claude-config');
    const result = await runDsh(['hooks', 'install', 'claude-code', '--user'], {
      env: { CLAUDE_CONFIG_DIR: config, DSH_HOME: dirs.data.path },
    });
    expect(result.code).toBe(0);
    const written = JSON.parse(await readFile(join(config, 'settings.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(written.hooks)).toEqual(['PreToolUse', 'PostToolUse']);
  });

  it('refuses a malformed settings file with INVALID_SETTINGS and leaves its bytes as they were', async () => {
    const settings = join(dirs.work.path, '.claude', 'settings.json');
    await mkdir(join(dirs.work.path, '.claude'));
    for (const text of ['{"hooks": {"PreToolUse": ', '{"hooks": {"PreToolUse": {"matcher": "*"}}}']) {
      await writeFile(settings, text);
      const result = await runDsh(['hooks', 'install', 'claude-code', '--project', dirs.work.path]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('dsh: INVALID_SETTINGS:');
      expect(result.stderr).toContain('Nothing was written.');
      expect(await readFile(settings, 'utf8')).toBe(text);
    }
  });
});

describe('dsh checkpoint --from claude-code', () => {
  it('checkpoints the hook input cwd into the data folder and records the call, writing nothing in the workspace', async () => {
    const input = {
      session_id: 'a1b2c3d4-0000-4000-8000-000000000001',
      transcript_path: '/nowhere.jsonl',
      cwd: dirs.work.path,
      tool_use_id: 'toolu_01',
      hook_event_name: 'PreToolUse',
    };
    const result = await runDsh(['checkpoint', '--from', 'claude-code', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const index = await readFile(join(dirs.data.path, 'claude-checkpoints', `${input.session_id}.jsonl`), 'utf8');
    const [record] = index
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { tree: string; tool_use_id: string; hook_event_name: string; cwd: string });
    expect(record).toMatchObject({ tool_use_id: 'toolu_01', hook_event_name: 'PreToolUse', cwd: dirs.work.path });
    const files = await openWorkspaceStore({ dir: join(dirs.data.path, '.workspaces.git') }).listFiles(record?.tree ?? '');
    expect(files.map((file) => file.path)).toEqual(['notes.md']);
  });

  it('never runs a program the workspace names: a planted .git whose config sets core.fsmonitor and a hooks path', async () => {
    const work = dirs.work.path;
    const marker = join(dirs.data.path, 'ran');
    execFileSync('git', ['init', '-q'], { cwd: work });
    const script = join(work, 'evil.sh');
    await writeFile(script, `#!/bin/sh\ntouch ${marker}\n`);
    await chmod(script, 0o755);
    await mkdir(join(work, 'hooks'));
    for (const hook of ['post-index-change', 'reference-transaction', 'post-checkout'])
      await writeFile(join(work, 'hooks', hook), `#!/bin/sh\ntouch ${marker}\n`, { mode: 0o755 });
    execFileSync('git', ['config', 'core.fsmonitor', script], { cwd: work });
    execFileSync('git', ['config', 'core.hooksPath', join(work, 'hooks')], { cwd: work });
    const input = { session_id: 's-hostile', cwd: work, tool_use_id: 'toolu_01', hook_event_name: 'PostToolUse' };
    const result = await runDsh(['checkpoint', '--from', 'claude-code', '--data', dirs.data.path], { stdin: JSON.stringify(input) });
    expect(result).toMatchObject({ code: 0, stdout: '', stderr: '' });
    expect(await readFile(join(dirs.data.path, 'claude-checkpoints', 's-hostile.jsonl'), 'utf8')).toContain('"tool_use_id":"toolu_01"');
    await expect(stat(marker)).rejects.toThrow();
  });

  it('answers garbage, a missing field, a foreign event and a missing cwd with a note on stderr and exit 0', async () => {
    const base = { session_id: 's1', cwd: dirs.work.path, tool_use_id: 'toolu_01', hook_event_name: 'PostToolUse' };
    const cases: [string, string][] = [
      ['not json at all', 'expected the hook input to be a JSON object on stdin'],
      ['', 'got nothing'],
      [JSON.stringify({ ...base, tool_use_id: undefined }), 'expected "tool_use_id" to be a non-empty string'],
      [JSON.stringify({ ...base, hook_event_name: 'Stop' }), 'expected hook_event_name PreToolUse or PostToolUse'],
      [JSON.stringify({ ...base, session_id: '../../etc/x' }), 'expected session_id to be a session id'],
      [JSON.stringify({ ...base, cwd: join(dirs.work.path, 'gone') }), 'NO_WORKSPACE'],
    ];
    for (const [stdin, note] of cases) {
      const result = await runDsh(['checkpoint', '--from', 'claude-code', '--data', dirs.data.path], { stdin });
      expect(result.code, stdin).toBe(0);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('dsh checkpoint: no checkpoint taken (');
      expect(result.stderr).toContain(note);
    }
  });
});
