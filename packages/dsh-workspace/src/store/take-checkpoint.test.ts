/**
 * Checkpoints with real git on real folders: what a tree holds (ignores, links, no `.git`), what is
 * skipped and why, O(changed files) through the private index, and nothing written to the workspace
 * or the user's repository, nor any program its config names run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';

/** A budget no loaded test machine runs out of (the budget's own test sets its own). */
const ROOMY = { budgetMs: 600_000 };
import { openWorkspaceStore, type WorkspaceStore } from '../open-workspace-store.js';
import { safeGitArgs, safeGitEnv } from '../run-git.js';
import { WorkspaceError } from '../workspace-error.js';

/** Every path under `root` with its size and mtime: what "nothing written" is checked against. */
function snapshot(root: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      const info = lstatSync(path);
      found.set(relative(root, path), `${info.mode}:${info.size}:${info.mtimeMs}`);
      if (info.isDirectory()) walk(path);
    }
  };
  walk(root);
  return found;
}

async function paths(store: WorkspaceStore, tree: string): Promise<string[]> {
  return (await store.listFiles(tree)).map((file) => file.path);
}

function gitRepo(dir: string): void {
  execFileSync('git', ['init', '-q', '-b', 'main', dir]);
  execFileSync('git', ['-C', dir, 'add', '-A']);
  execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one']);
}

describe('WorkspaceStore.checkpoint', () => {
  it('captures a folder: .gitignore honoured, .git and node_modules left out of a non-git folder, links stored as links', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, 'src', 'deep'), { recursive: true });
    mkdirSync(join(ws, 'node_modules', 'x'), { recursive: true });
    mkdirSync(join(ws, '.git'));
    writeFileSync(join(ws, '.git', 'config'), 'not a repository\n');
    writeFileSync(join(ws, 'node_modules', 'x', 'index.js'), 'x\n');
    writeFileSync(join(ws, 'src', 'deep', 'a.ts'), 'a\n');
    writeFileSync(join(ws, 'build.log'), 'log\n');
    writeFileSync(join(ws, '.gitignore'), '*.log\n');
    symlinkSync('/etc/passwd', join(ws, 'outside'));
    symlinkSync('src', join(ws, 'inside'));
    const store = openWorkspaceStore({ dir: join(dir.path, 'data', '.workspaces.git') });

    const first = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    expect(first.skipped).toBeUndefined();
    expect(first.ms).toBeGreaterThanOrEqual(0);
    const files = await store.listFiles(first.tree);
    expect(files.map((file) => file.path)).toEqual(['.gitignore', 'inside', 'outside', 'src/deep/a.ts']);
    expect(files.find((file) => file.path === 'outside')?.mode).toBe('120000');
    expect(files.find((file) => file.path === 'inside')?.mode).toBe('120000');
    // The link's content is its target, not the file it names.
    const blob = files.find((file) => file.path === 'outside')?.object ?? '';
    expect(execFileSync('git', ['--git-dir', store.dir, 'cat-file', 'blob', blob], { encoding: 'utf8' })).toBe('/etc/passwd');
  });

  it('honours a checkout’s .gitignore and info/exclude, never captures its .git, and touches nothing of the repository or the files', async () => {
    await using dir = await makeTempDir();
    const repo = join(dir.path, 'repo');
    mkdirSync(join(repo, 'node_modules'), { recursive: true });
    writeFileSync(join(repo, 'node_modules', 'kept.js'), 'in a checkout, .gitignore decides\n');
    writeFileSync(join(repo, '.gitignore'), 'secret.env\n');
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    gitRepo(repo);
    writeFileSync(join(repo, '.git', 'info', 'exclude'), 'local-only/\n');
    mkdirSync(join(repo, 'local-only'));
    writeFileSync(join(repo, 'local-only', 'x'), 'x\n');
    writeFileSync(join(repo, 'secret.env'), 'TOKEN=1\n');
    writeFileSync(join(repo, 'b.txt'), 'untracked in the repository, captured by the checkpoint\n');
    const before = snapshot(repo);
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });

    const checkpoint = await store.checkpoint(repo, { sessionId: 's1', ...ROOMY });
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    const again = await store.checkpoint(repo, { sessionId: 's1', ...ROOMY });

    expect(await paths(store, checkpoint.tree)).toEqual(['.gitignore', 'a.txt', 'b.txt', 'node_modules/kept.js']);
    expect(again.tree).not.toBe(checkpoint.tree);
    const after = snapshot(repo);
    after.set('a.txt', before.get('a.txt') ?? '');
    expect(after).toEqual(before);
    expect(execFileSync('git', ['-C', repo, 'status', '--porcelain'], { encoding: 'utf8' })).toBe(' M a.txt\n?? b.txt\n');
  });

  it('leaves its own store out when the store lies inside the workspace (a cwd of ~ holding the data folder)', async () => {
    await using dir = await makeTempDir();
    writeFileSync(join(dir.path, 'mine.txt'), 'mine\n');
    const store = openWorkspaceStore({ dir: join(dir.path, 'data', '.workspaces.git') });
    const first = await store.checkpoint(dir.path, { sessionId: 's1', ...ROOMY });
    writeFileSync(join(dir.path, 'data', 'session.jsonl'), '{}\n');
    const second = await store.checkpoint(dir.path, { sessionId: 's1', ...ROOMY });
    expect(await paths(store, first.tree)).toEqual(['mine.txt']);
    expect(await paths(store, second.tree)).toEqual(['data/session.jsonl', 'mine.txt']);
  });

  it('names what it skips: a file over maxFileBytes, past maxNewBytes, a nested repository, a tracked file become a fifo', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'small.txt'), 'small\n');
    writeFileSync(join(ws, 'pipe'), 'a file for now\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const first = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    expect(await paths(store, first.tree)).toEqual(['pipe', 'small.txt']);

    writeFileSync(join(ws, 'big.bin'), Buffer.alloc(2048, 1));
    writeFileSync(join(ws, 'b1.txt'), Buffer.alloc(600, 2));
    writeFileSync(join(ws, 'b2.txt'), Buffer.alloc(600, 3));
    rmSync(join(ws, 'pipe'));
    execFileSync('mkfifo', [join(ws, 'pipe')]);
    const nested = join(ws, 'vendor', 'lib');
    mkdirSync(nested, { recursive: true });
    writeFileSync(join(nested, 'lib.c'), 'int x;\n');
    gitRepo(nested);

    const second = await store.checkpoint(ws, { sessionId: 's1', maxFileBytes: 1024, maxNewBytes: 1000 });
    const skipped = [...(second.skipped ?? [])].sort((a, b) => a.path.localeCompare(b.path));
    const budgeted = skipped.filter((entry) => entry.reason === 'budget').map((entry) => entry.path);
    expect(budgeted).toHaveLength(1);
    expect(skipped.filter((entry) => entry.reason !== 'budget')).toEqual([
      { path: 'big.bin', reason: 'too-large' },
      { path: 'pipe', reason: 'special-file' },
      { path: 'vendor/lib', reason: 'nested-repository' },
    ]);
    const captured = await paths(store, second.tree);
    // A skipped tracked path leaves the tree (no stale version of it); one of b1/b2 fit the budget.
    expect(captured).toEqual(['small.txt', ['b1.txt', 'b2.txt'].find((path) => !budgeted.includes(path))].sort());
  });

  it('a second checkpoint writes only the changed file and one tree, and the same files give the same tree', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    for (let at = 0; at < 200; at += 1) writeFileSync(join(ws, `f${at}.txt`), `file ${at}\n`);
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const objects = (): number =>
      Number(/count: (\d+)/.exec(execFileSync('git', ['--git-dir', store.dir, 'count-objects', '-v'], { encoding: 'utf8' }))?.[1]);
    await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    const afterFirst = objects();
    expect(afterFirst).toBe(201);
    writeFileSync(join(ws, 'f7.txt'), 'changed\n');
    const second = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    expect(objects()).toBe(afterFirst + 2);
    const diff = await store.diff((await store.checkpoint(ws, { sessionId: 's2', ...ROOMY })).tree, second.tree);
    expect(diff.changes).toEqual([]);
  });

  it('refuses NO_WORKSPACE for a missing cwd and INVALID_OPTION for bad limits', async () => {
    await using dir = await makeTempDir();
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const missing = await store.checkpoint(join(dir.path, 'gone'), { sessionId: 's1', ...ROOMY }).catch((error: unknown) => error);
    expect(WorkspaceError.is(missing) && missing.code).toBe('NO_WORKSPACE');
    expect((missing as Error).message).toContain('does not exist');
    const bad = await store.checkpoint(dir.path, { sessionId: 's1', budgetMs: -1 }).catch((error: unknown) => error);
    expect(WorkspaceError.is(bad) && bad.code).toBe('INVALID_OPTION');
    expect((bad as Error).message).toBe('Expected budgetMs to be a positive number; got -1.');
  });

  it('runs no program the workspace’s repository names (fsmonitor, hooks, clean filter)', async () => {
    await using dir = await makeTempDir();
    const repo = join(dir.path, 'repo');
    const marks = join(dir.path, 'marks');
    mkdirSync(repo);
    mkdirSync(marks);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    writeFileSync(join(repo, '.gitattributes'), '*.txt filter=evil\n');
    gitRepo(repo);
    const script = (name: string): string => {
      const path = join(dir.path, `${name}.sh`);
      writeFileSync(path, `#!/bin/sh\ntouch '${join(marks, name)}'\ncat\n`);
      chmodSync(path, 0o755);
      return path;
    };
    execFileSync('git', ['-C', repo, 'config', 'core.fsmonitor', script('fsmonitor')]);
    execFileSync('git', ['-C', repo, 'config', 'filter.evil.clean', script('clean')]);
    for (const hook of ['post-index-change', 'reference-transaction', 'post-checkout']) {
      writeFileSync(join(repo, '.git', 'hooks', hook), `#!/bin/sh\ntouch '${join(marks, hook)}'\n`);
      chmodSync(join(repo, '.git', 'hooks', hook), 0o755);
    }
    writeFileSync(join(repo, 'a.txt'), 'changed\n');
    // The control: plain git in that checkout runs them.
    spawnSync('git', ['-C', repo, 'add', 'a.txt']);
    expect(readdirSync(marks).sort()).toEqual(['clean', 'fsmonitor', 'post-index-change']);
    rmSync(marks, { recursive: true });
    mkdirSync(marks);
    writeFileSync(join(repo, 'a.txt'), 'changed again\n');

    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const checkpoint = await store.checkpoint(repo, { sessionId: 's1', ...ROOMY });
    await store.materialize(checkpoint.tree, join(dir.path, 'copy'));
    await store.restore(checkpoint.tree, repo, { known: [checkpoint.tree] });
    await store.release('s1');
    expect(readdirSync(marks)).toEqual([]);
    // Bytes stored as they are: the workspace's .gitattributes cannot filter or convert them.
    expect(readFileSync(join(dir.path, 'copy', 'a.txt'), 'utf8')).toBe('changed again\n');
  });

  it('names every file it did not capture when its time budget runs out (none dropped silently)', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    const all: string[] = [];
    for (let at = 0; at < 1000; at += 1) {
      all.push(`f${String(at).padStart(4, '0')}.txt`);
      writeFileSync(join(ws, all[at] ?? ''), `file ${at}\n`);
    }
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    // Whatever 1 ms allows on this machine: each file is in the tree or in skipped, never neither.
    const rushed = await store.checkpoint(ws, { sessionId: 's1', budgetMs: 1 });
    const captured = await paths(store, rushed.tree);
    const skipped = (rushed.skipped ?? []).map((entry) => entry.path);
    for (const entry of rushed.skipped ?? []) expect(entry.reason).toBe('budget');
    if (skipped.includes('.')) expect(captured).toEqual([]);
    else expect([...captured, ...skipped].sort()).toEqual(all);
    // A budget no loaded machine runs out of: then everything is captured.
    const whole = await store.checkpoint(ws, { sessionId: 's1', budgetMs: 600_000 });
    expect(whole.skipped).toBeUndefined();
    expect(await paths(store, whole.tree)).toEqual(all);
  });

  it('refuses GIT_NOT_FOUND when git cannot be started', async () => {
    await using dir = await makeTempDir();
    const path = process.env['PATH'];
    process.env['PATH'] = join(dir.path, 'no-programs-here');
    try {
      const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
      const missing = await store.checkpoint(dir.path, { sessionId: 's1', ...ROOMY }).catch((error: unknown) => error);
      expect(WorkspaceError.is(missing) && missing.code).toBe('GIT_NOT_FOUND');
    } finally {
      process.env['PATH'] = path;
    }
  });

  it('two stores on one folder checkpoint one workspace at once and both trees are whole', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    for (let at = 0; at < 50; at += 1) writeFileSync(join(ws, `f${at}.txt`), `file ${at}\n`);
    const storeDir = join(dir.path, '.workspaces.git');
    const [a, b] = [openWorkspaceStore({ dir: storeDir }), openWorkspaceStore({ dir: storeDir })];
    const results = await Promise.all([
      a.checkpoint(ws, { sessionId: 'a', ...ROOMY }),
      b.checkpoint(ws, { sessionId: 'b', ...ROOMY }),
      a.checkpoint(ws, { sessionId: 'c', ...ROOMY }),
    ]);
    for (const result of results) expect(await paths(a, result.tree)).toHaveLength(50);
    expect(new Set(results.map((result) => result.tree)).size).toBe(1);
    expect(existsSync(join(storeDir, 'dsh', 'tmp'))).toBe(true);
    expect(readdirSync(join(storeDir, 'dsh', 'tmp'))).toEqual([]);
  });

  it('stores created by several processes at once on fresh folders all work, and no creation folder is left', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const folders = Array.from({ length: 6 }, (_, at) => join(dir.path, `data${String(at)}`, '.workspaces.git'));
    const runs = folders.flatMap((storeDir) =>
      Array.from({ length: 4 }, (_, at) => openWorkspaceStore({ dir: storeDir }).checkpoint(ws, { sessionId: `s${String(at)}`, ...ROOMY })),
    );
    const results = await Promise.all(runs);
    expect(new Set(results.map((result) => result.tree)).size).toBe(1);
    for (const storeDir of folders) {
      expect(readdirSync(join(storeDir, '..'))).toEqual(['.workspaces.git']);
      expect(readFileSync(join(storeDir, 'dsh', 'default-excludes'), 'utf8')).toBe('.git/\nnode_modules/\n');
    }
  });

  it('waits for another process still running git init in the folder (HEAD written, config locked) and never uses the store half made', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const storeDir = join(dir.path, '.workspaces.git');
    // The other process's `git init` in place, caught after its lock on the config and before HEAD.
    mkdirSync(join(storeDir, 'objects'), { recursive: true });
    mkdirSync(join(storeDir, 'refs'), { recursive: true });
    writeFileSync(join(storeDir, 'HEAD'), 'ref: refs/heads/main\n');
    writeFileSync(join(storeDir, 'config.lock'), '');
    const finishOther = setTimeout(() => {
      rmSync(join(storeDir, 'config.lock'));
      // As the store runs git: the folder named by --git-dir, no command-running config, a cleaned environment.
      execFileSync('git', [...safeGitArgs({ gitDir: storeDir }), 'init', '--bare', '--quiet', '--template='], { env: safeGitEnv() });
    }, 1500);
    try {
      const result = await openWorkspaceStore({ dir: storeDir }).checkpoint(ws, { sessionId: 's', ...ROOMY });
      // Never used half made: git writes HEAD before the config, so HEAD alone is no store.
      expect(existsSync(join(storeDir, 'config'))).toBe(true);
      expect(await paths(openWorkspaceStore({ dir: storeDir }), result.tree)).toEqual(['a.txt']);
    } finally {
      clearTimeout(finishOther);
    }
  });
});
