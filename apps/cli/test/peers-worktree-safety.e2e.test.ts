// Issue 36 items 2 and 3 (SPEC §27): `dsh peers --remove` takes only a peer name and removes only a
// worktree dsh made that git lists on dsh/NAME; `dsh peers --worktree` checks every name against the
// repository's refs and each other before creating anything, removes what it made when it fails, and
// a kill during creation leaves what `dsh peers --remove NAME` cleans.
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { descendantsOf, isRunning, makeTempDir, printJson, runDsh, spawnDsh, waitFor } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { git } from './run-git.js';

const dirs = useCliTestDirs('dsh-peers-safety', { work: true });

/** A committed repository in the work directory and a baseline session `base` running in it. */
async function baseline(): Promise<void> {
  git(dirs.work.path, 'init', '-q', '-b', 'main');
  git(dirs.work.path, 'add', '.');
  git(dirs.work.path, 'commit', '-qm', 'start');
  await printJson(['-p', 'list files', '--name', 'base', '--data', dirs.data.path], { cwd: dirs.work.path });
}

function peers(args: readonly string[]) {
  return runDsh(['peers', ...args, '--data', dirs.data.path], { cwd: dirs.work.path, timeoutMs: 120_000 });
}

/** What a run may have left: dsh/* branches, worktrees git lists, folders under DATA/worktrees (records included). */
async function leftovers(): Promise<{ branches: string; worktrees: number; folders: string[] }> {
  const folders = existsSync(join(dirs.data.path, 'worktrees'))
    ? await readdir(join(dirs.data.path, 'worktrees'), { recursive: true })
    : [];
  return {
    branches: git(dirs.work.path, 'branch', '--list', 'dsh/*'),
    worktrees: git(dirs.work.path, 'worktree', 'list', '--porcelain').match(/^worktree /gm)?.length ?? 0,
    folders: folders.filter((entry) => entry !== '.records'),
  };
}

async function sessionCount(): Promise<number> {
  return (JSON.parse((await runDsh(['sessions', '--json', '--data', dirs.data.path])).stdout) as unknown[]).length;
}

describe('dsh peers --remove takes only a peer name and removes only what dsh made', () => {
  it(
    'refuses ../, absolute and empty-part names (INVALID_BRANCH_NAME), leaving a user worktree and its uncommitted file',
    { timeout: 240_000 },
    async () => {
      await baseline();
      const outside = await makeTempDir('dsh-peers-other-');
      try {
        const other = join(outside.path, 'other-wt');
        git(dirs.work.path, 'worktree', 'add', '-q', '-b', 'mine', other);
        await writeFile(join(other, 'unsaved.txt'), 'my own work\n');
        // From DATA/worktrees/, ../../<outside>/other-wt is the user's worktree.
        const escaping = `../../${basename(outside.path)}/other-wt`;
        expect(join(dirs.data.path, 'worktrees', escaping)).toBe(other);
        for (const name of [escaping, other, 'a//b', '..', '.hidden']) {
          const refused = await peers(['--remove', name, '--force']);
          expect([name, refused.code, refused.stderr]).toEqual([name, 1, expect.stringContaining('dsh: INVALID_BRANCH_NAME: ')]);
        }
        expect(await readFile(join(other, 'unsaved.txt'), 'utf8')).toBe('my own work\n');
        expect(git(dirs.work.path, 'branch', '--list', 'mine')).toContain('mine');

        // A worktree the user made under DATA/worktrees on a dsh/ branch is not dsh's to remove either.
        const theirs = join(dirs.data.path, 'worktrees', 'theirs');
        git(dirs.work.path, 'worktree', 'add', '-q', '-b', 'dsh/theirs', theirs);
        await writeFile(join(theirs, 'unsaved.txt'), 'kept\n');
        const unrecorded = await peers(['--remove', 'theirs', '--force']);
        expect([unrecorded.code, unrecorded.stderr]).toEqual([1, expect.stringContaining('dsh: WORKTREE_NOT_FOUND: ')]);
        expect(await readFile(join(theirs, 'unsaved.txt'), 'utf8')).toBe('kept\n');
      } finally {
        await outside.remove();
      }
    },
  );

  it('removes a worktree dsh made only while git lists it on dsh/NAME', { timeout: 240_000 }, async () => {
    await baseline();
    const made = await peers(['base', '--prompt', 'list files', '--name', 'pa', '--worktree']);
    expect(made.code, made.stderr).toBe(0);
    const path = join(dirs.data.path, 'worktrees', 'pa');
    git(path, 'switch', '-q', '-c', 'elsewhere');
    const moved = await peers(['--remove', 'pa', '--force']);
    expect([moved.code, moved.stderr]).toEqual([1, expect.stringContaining('not on dsh/pa')]);
    expect(existsSync(path)).toBe(true);
    git(path, 'switch', '-q', 'dsh/pa');
    const removed = await peers(['--remove', 'pa']);
    expect(removed.code, removed.stderr).toBe(0);
    git(dirs.work.path, 'branch', '-D', 'elsewhere');
    expect(await leftovers()).toEqual({ branches: '', worktrees: 1, folders: [] });
  });
});

describe('dsh peers --worktree checks every name before creating anything', () => {
  it(
    'refuses x beside x/y (INVALID_BRANCH_NAME) and a name clashing with an existing ref (BRANCH_EXISTS), creating nothing',
    { timeout: 240_000 },
    async () => {
      await baseline();
      const before = await sessionCount();
      const pair = await peers(['base', '--prompt', 'one', '--prompt', 'two', '--name', 'x', '--name', 'x/y', '--worktree']);
      expect([pair.code, pair.stderr]).toEqual([
        1,
        expect.stringContaining("dsh: INVALID_BRANCH_NAME: Peer names 'x' and 'x/y' cannot both be branches"),
      ]);
      git(dirs.work.path, 'branch', 'dsh/z/w');
      const clash = await peers(['base', '--prompt', 'one', '--name', 'z', '--worktree']);
      expect([clash.code, clash.stderr]).toEqual([1, expect.stringContaining('dsh: BRANCH_EXISTS: Branch dsh/z/w exists')]);
      git(dirs.work.path, 'branch', '-D', 'dsh/z/w');
      expect(await sessionCount()).toBe(before);
      expect(await leftovers()).toEqual({ branches: '', worktrees: 1, folders: [] });
    },
  );

  it('removes the worktrees it made when a later one cannot be made', { timeout: 240_000 }, async () => {
    await baseline();
    const before = await sessionCount();
    // Another git process holds the lock of the second branch: its `git worktree add` fails.
    const lock = join(dirs.work.path, '.git', 'refs', 'heads', 'dsh', 'pb.lock');
    await mkdir(join(lock, '..'), { recursive: true });
    await writeFile(lock, '');
    const failed = await peers(['base', '--prompt', 'one', '--prompt', 'two', '--name', 'pa', '--name', 'pb', '--worktree']);
    expect([failed.code, failed.stderr]).toEqual([1, expect.stringContaining("dsh: GIT_FAILED: git worktree add for peer 'pb' failed")]);
    expect(existsSync(lock)).toBe(true);
    expect(await sessionCount()).toBe(before);
    expect(await leftovers()).toEqual({ branches: '', worktrees: 1, folders: [] });
  });

  it('killed with SIGKILL while it creates worktrees, leaves what dsh peers --remove NAME cleans', { timeout: 600_000 }, async () => {
    await baseline();
    const names = ['k1', 'k2', 'k3', 'k4'];
    const records = join(dirs.data.path, 'worktrees', '.records');
    for (const delayMs of [0, 60]) {
      const child = spawnDsh(
        ['peers', 'base', ...names.flatMap((name) => ['--prompt', 'list files', '--name', name]), '--worktree', '--data', dirs.data.path],
        {
          cwd: dirs.work.path,
        },
      );
      const state = { ended: false };
      const exited = new Promise((resolve) => child.on('exit', resolve)).then(() => (state.ended = true));
      // The first record is written just before the first `git worktree add`.
      while (!state.ended && (!existsSync(records) || (await readdir(records)).length === 0))
        await new Promise((resolve) => setTimeout(resolve, 2));
      expect(state.ended ? 'dsh ended before it recorded a worktree' : 'recorded').toBe('recorded');
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      // The git it started runs on to its end, as after a real kill -9: wait for it, then clean up.
      const orphans = descendantsOf(child.pid ?? 0);
      child.kill('SIGKILL');
      await exited;
      await waitFor("the killed dsh's git processes", () => orphans.every((pid) => !isRunning(pid)));
      for (const name of names) {
        const removed = await peers(['--remove', name]);
        expect([name, removed.code === 0 || removed.stderr.includes('dsh: WORKTREE_NOT_FOUND: No worktree dsh made')]).toEqual([
          name,
          true,
        ]);
      }
      expect(await leftovers()).toEqual({ branches: '', worktrees: 1, folders: [] });
      expect(await readdir(records)).toEqual([]);
      // Peers (if the kill came after them) are sessions; their names are taken now, so delete them.
      for (const name of names) await runDsh(['delete', name, '--data', dirs.data.path]);
    }
  });
});
