import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, printJson, runDsh, spawnDsh, startModelServer } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-fork', { work: true });

type Event = { type: string; data: Record<string, unknown> };

async function latestConfig(ref: string): Promise<Record<string, unknown> | undefined> {
  const shown = await runDsh(['show', ref, '--json', '--data', dirs.data.path]);
  return (JSON.parse(shown.stdout) as { events: Event[] }).events.findLast((event) => event.type === 'session/config')?.data;
}

describe('dsh fork --cwd, --tools, --worktree', () => {
  it('changes only the given config fields of what the child inherits', { timeout: 120_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    const other = await makeTempDir('dsh-fork-other-');
    try {
      const forked = await runDsh([
        'fork',
        'base',
        '--name',
        'moved',
        '--cwd',
        other.path,
        '--tools',
        'read_file',
        '--json',
        '--data',
        dirs.data.path,
      ]);
      expect(forked.code, forked.stderr).toBe(0);
      expect(await latestConfig('moved')).toEqual({ cwd: other.path, tools: ['read_file'], model: 'keyless' });
      const answer = await printJson(['-p', 'list files', '--resume', 'moved', '--data', dirs.data.path], { cwd: dirs.work.path });
      // list_files does not exist for the child: only read_file was made available.
      expect(answer.result).not.toContain('notes.md');
    } finally {
      await other.remove();
    }
  });

  it('--worktree puts the child in its own git worktree on dsh/<name>', { timeout: 120_000 }, async () => {
    git(dirs.work.path, 'init', '-q');
    git(dirs.work.path, 'add', '.');
    git(dirs.work.path, 'commit', '-qm', 'start');
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    const forked = await runDsh(['fork', 'base', '--worktree', '--data', dirs.data.path]);
    expect(forked.code, forked.stderr).toBe(0);
    const path = join(dirs.data.path, 'worktrees', 'base-1');
    expect(await latestConfig('base-1')).toMatchObject({ cwd: path });
    expect(git(path, 'rev-parse', '--abbrev-ref', 'HEAD').trim()).toBe('dsh/base-1');
    const refused = await runDsh(['fork', 'base', '--worktree', '--cwd', dirs.work.path, '--data', dirs.data.path]);
    expect(refused.code).toBe(2);
  });

  it('--no-checkpoints is accepted as with -p: the child is forked and no checkpoint store is created', { timeout: 120_000 }, async () => {
    const base = await printJson(['-p', 'list files', '--name', 'base', '--no-checkpoints', '--data', dirs.data.path], {
      cwd: dirs.work.path,
    });
    const forked = await runDsh(['fork', 'base', '--name', 'quiet', '--no-checkpoints', '--json', '--data', dirs.data.path]);
    expect(forked.code, forked.stderr).toBe(0);
    expect((JSON.parse(forked.stdout) as { parent_session: string }).parent_session).toBe(base.session_id);
    expect(await latestConfig('quiet')).toMatchObject({ cwd: dirs.work.path });
    expect(existsSync(join(dirs.data.path, '.workspaces.git'))).toBe(false);
    const refused = await runDsh(['fork', 'base', '--restore', '--no-checkpoints', '--data', dirs.data.path]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--restore takes a checkpoint of the files it changes');
  });

  it('warns, naming it, when the new fork works in a directory a live session of another process uses', { timeout: 120_000 }, async () => {
    await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
    let asked: () => void = () => undefined;
    const requested = new Promise<void>((resolve) => {
      asked = resolve;
    });
    dirs.server = await startModelServer(() => {
      asked();
      return 'hang';
    });
    const holder = spawnDsh(['-p', 'think', '--name', 'holder', '--model', 'openai:m', '--tools', '', '--data', dirs.data.path], {
      cwd: dirs.work.path,
      env: { OPENAI_BASE_URL: `${dirs.server.origin}/v1`, OPENAI_API_KEY: 'sk-test' },
    });
    const exited = new Promise((resolve) => holder.on('exit', resolve));
    try {
      await requested;
      const forked = await runDsh(['fork', 'base', '--name', 'next', '--data', dirs.data.path]);
      expect(forked.code, forked.stderr).toBe(0);
      expect(forked.stderr).toMatch(new RegExp(`warning: ${dirs.work.path} is also the working directory of live session holder \\(`));
      const elsewhere = await makeTempDir('dsh-fork-elsewhere-');
      try {
        const quiet = await runDsh(['fork', 'base', '--cwd', elsewhere.path, '--data', dirs.data.path]);
        expect(quiet.stderr).not.toContain('warning');
      } finally {
        await elsewhere.remove();
      }
    } finally {
      holder.kill('SIGKILL');
      await exited;
    }
  });
});
