/**
 * SPEC §27, bullets 1 and 2 — dsh never runs a program a session's tools could have written: the
 * file tools refuse any path with a `.git` part, and `dsh peers` runs git only against the repository
 * and admin folder it created; `dsh peers --remove` takes only a valid peer name, and `--worktree`
 * checks every name against existing refs and each other before creating anything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AgentError, demoTools, resolveInCwd, type ToolContext } from 'dsh-agent';
import { makeTempDir, type TempDir, runDsh, printJson } from '@dsh/test-utils';

let dir: TempDir;
let data: string;
let work: string;
beforeEach(async () => {
  dir = await makeTempDir('dsh-acc-s27-');
  data = join(dir.path, 'data');
  work = join(dir.path, 'work');
  await mkdir(work);
  await writeFile(join(work, 'notes.md'), 'remember the milk\n');
});
afterEach(async () => {
  await dir.remove();
});

function git(cwd: string, ...args: string[]): string {
  const run = spawnSync('git', ['-c', 'user.email=t@example.com', '-c', 'user.name=t', '-C', cwd, ...args], { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`git ${args.join(' ')}: ${run.stderr}`);
  return run.stdout;
}

async function codeOf(action: () => unknown): Promise<string | undefined> {
  try {
    await action();
    return undefined;
  } catch (error) {
    return AgentError.is(error) ? error.code : String(error);
  }
}

describe('§27 the file tools never touch .git', () => {
  it('§27 read_file, write_file, list_files, make_dir and resolveInCwd refuse a path with a .git part (PATH_REFUSED); a listing leaves .git out', async () => {
    git(work, 'init', '-q');
    const context: ToolContext = { cwd: work, signal: new AbortController().signal, sessionId: 's', callId: 'c', turn: 1, step: 1 };
    const tools = new Map(demoTools().map((tool) => [tool.name, tool]));
    const run = (name: string, args: Record<string, unknown>) => tools.get(name)?.run(args, context);
    for (const path of ['.git/config', '.GIT/hooks/post-checkout', 'sub/.git', '.git']) {
      expect(await codeOf(() => run('write_file', { path, content: '[core]\n\tfsmonitor = "touch x"\n' }))).toBe('PATH_REFUSED');
      expect(await codeOf(() => run('read_file', { path }))).toBe('PATH_REFUSED');
      expect(await codeOf(() => run('make_dir', { path }))).toBe('PATH_REFUSED');
      expect(await codeOf(() => resolveInCwd(work, path))).toBe('PATH_REFUSED');
    }
    expect(await codeOf(() => run('list_files', { path: '.git' }))).toBe('PATH_REFUSED');
    expect(await run('list_files', {})).toBe('notes.md');
    expect(await readFile(join(work, '.git', 'config'), 'utf8')).not.toContain('fsmonitor');
    expect(existsSync(join(work, 'sub'))).toBe(false);
  });
});

describe('§27 dsh peers runs git only where it chose', () => {
  it(
    '§27 a .git file and config planted in a peer worktree run nothing through --compare or --remove; the worktree is still removed',
    { timeout: 240_000 },
    async () => {
      git(work, 'init', '-q', '-b', 'main');
      git(work, 'add', '.');
      git(work, 'commit', '-qm', 'start');
      await printJson(['-p', 'list files', '--name', 'base', '--data', data], { cwd: work });
      const made = await runDsh(['peers', 'base', '--prompt', 'write a.txt: A', '--name', 'pa', '--worktree', '--data', data], {
        cwd: work,
      });
      expect(made.code, made.stderr).toBe(0);
      const worktree = join(data, 'worktrees', 'pa');
      const marker = join(dir.path, 'ran');
      await mkdir(join(worktree, 'evil', 'objects'), { recursive: true });
      await mkdir(join(worktree, 'evil', 'refs', 'heads'), { recursive: true });
      await writeFile(join(worktree, 'evil', 'HEAD'), 'ref: refs/heads/main\n');
      await writeFile(
        join(worktree, 'evil', 'config'),
        `[core]\n\tbare = false\n\tfsmonitor = "echo fsmonitor >> '${marker}' #"\n\tpager = "echo pager >> '${marker}' #"\n`,
      );
      await writeFile(join(worktree, '.git'), 'gitdir: evil\n');
      const compared = await runDsh(['peers', '--compare', 'base', 'pa', '--output-format', 'json', '--data', data], { cwd: work });
      expect(compared.code, compared.stderr).toBe(0);
      expect((JSON.parse(compared.stdout) as { sessions: { files_changed: string[] }[] }).sessions[1]?.files_changed).toContain('a.txt');
      const refused = await runDsh(['peers', '--remove', 'pa', '--data', data], { cwd: work });
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('WORKTREE_HAS_CHANGES')]);
      const removed = await runDsh(['peers', '--remove', 'pa', '--force', '--data', data], { cwd: work });
      expect(removed.code, removed.stderr).toBe(0);
      expect(existsSync(marker)).toBe(false);
      expect(existsSync(worktree)).toBe(false);
      expect(git(work, 'branch', '--list', 'dsh/*')).toBe('');
    },
  );

  it(
    '§27 --remove refuses a name that is no peer name (INVALID_BRANCH_NAME); --worktree refuses x beside x/y before creating anything',
    { timeout: 240_000 },
    async () => {
      git(work, 'init', '-q', '-b', 'main');
      git(work, 'add', '.');
      git(work, 'commit', '-qm', 'start');
      const other = join(dir.path, 'other-wt');
      git(work, 'worktree', 'add', '-q', '-b', 'mine', other);
      await writeFile(join(other, 'unsaved.txt'), 'mine\n');
      const refused = await runDsh(['peers', '--remove', '../../other-wt', '--force', '--data', data], { cwd: work });
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('INVALID_BRANCH_NAME')]);
      expect(await readFile(join(other, 'unsaved.txt'), 'utf8')).toBe('mine\n');

      await printJson(['-p', 'list files', '--name', 'base', '--data', data], { cwd: work });
      const pair = await runDsh(
        ['peers', 'base', '--prompt', 'a', '--prompt', 'b', '--name', 'x', '--name', 'x/y', '--worktree', '--data', data],
        {
          cwd: work,
        },
      );
      expect([pair.code, pair.stderr]).toEqual([1, expect.stringContaining('INVALID_BRANCH_NAME')]);
      expect(git(work, 'branch', '--list', 'dsh/*')).toBe('');
      expect(
        existsSync(join(data, 'worktrees')) ? (await readdir(join(data, 'worktrees'))).filter((name) => name !== '.records') : [],
      ).toEqual([]);
    },
  );
});
