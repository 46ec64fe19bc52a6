/**
 * A worktree at a checkpoint copies into the user's repository only the objects it lacks (the changed
 * files' blobs and the trees above them), from the store through an alternate given to one git call:
 * the repository ends self-contained, readable after the store is gone, with no `alternates` file.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { openWorkspaceStore } from '../open-workspace-store.js';
import { alternateEntry } from './checkpoint-commit.js';
import { openWorktrees } from './open-worktrees.js';

const ROOMY = { budgetMs: 600_000 };

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
}

/** A committed checkout of 40 files in `src/` and `docs/`, its objects packed: every loose object after is one dsh wrote. */
function packedRepo(root: string): string {
  const repo = join(root, 'repo');
  for (const folder of ['src', 'docs', 'pkg/lib'])
    for (let at = 0; at < 10; at += 1) {
      mkdirSync(join(repo, folder), { recursive: true });
      writeFileSync(join(repo, folder, `f${String(at)}.txt`), `${folder} ${String(at)}\n`);
    }
  writeFileSync(join(repo, 'README.md'), 'top\n');
  gitIn(root, 'init', '-q', '-b', 'main', repo);
  gitIn(repo, 'add', '-A');
  gitIn(repo, 'commit', '-q', '-m', 'one');
  gitIn(repo, 'repack', '-a', '-d', '-q');
  gitIn(repo, 'prune');
  return repo;
}

/** `git count-objects -v` as numbers. */
function objectCounts(repo: string): { count: number; packs: number } {
  const fields = new Map(
    gitIn(repo, 'count-objects', '-v')
      .trim()
      .split('\n')
      .map((line) => line.split(': ') as [string, string]),
  );
  return { count: Number(fields.get('count')), packs: Number(fields.get('packs')) };
}

/** A `git` first on PATH that logs each call's subcommand to `log`, then runs the real one. */
function countingGit(binDir: string, log: string): string {
  const real = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  mkdirSync(binDir, { recursive: true });
  const script = `#!/bin/sh
sub=""; skip=0
for arg in "$@"; do
  if [ "$skip" = 1 ]; then skip=0; continue; fi
  case "$arg" in -c) skip=1 ;; -*) ;; *) sub="$arg"; break ;; esac
done
echo "$sub" >> '${log}'
exec '${real}' "$@"
`;
  writeFileSync(join(binDir, 'git'), script);
  chmodSync(join(binDir, 'git'), 0o755);
  return binDir;
}

async function withPath<T>(binDir: string, run: () => Promise<T>): Promise<T> {
  const path = process.env['PATH'];
  process.env['PATH'] = `${binDir}:${path ?? ''}`;
  try {
    return await run();
  } finally {
    process.env['PATH'] = path;
  }
}

async function setup(dataName = 'data') {
  const dir = await makeTempDir();
  const dataDir = join(dir.path, dataName);
  mkdirSync(dataDir);
  const store = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
  return { dir, dataDir, store, worktrees: openWorktrees({ dataDir, store }) };
}

describe('a worktree at a checkpoint', () => {
  it('copies only the changed blob and the trees above it, with two git processes for the copy', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    const cut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    writeFileSync(join(repo, 'src', 'f3.txt'), 'at the cut\n');
    const atCut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    expect(atCut.tree).not.toBe(cut.tree);
    writeFileSync(join(repo, 'src', 'f3.txt'), 'after the cut\n');
    const before = objectCounts(repo);
    const log = join(dir.path, 'git.log');
    const made = await withPath(countingGit(join(dir.path, 'bin'), log), () =>
      worktrees.prepare({ sourceId: 'src', sourceCwd: repo, checkpoint: { seq: 2, tree: atCut.tree }, name: 'c', childId: 'c-id' }),
    );
    expect(readFileSync(join(made.dir, 'src', 'f3.txt'), 'utf8')).toBe('at the cut\n');
    expect(readFileSync(join(made.dir, 'docs', 'f3.txt'), 'utf8')).toBe('docs 3\n');
    // The blob, src's tree, the root tree (copied) and dsh's commit; nothing of the 30 unchanged files.
    expect(objectCounts(repo)).toEqual({ count: before.count + 4, packs: before.packs });
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls.filter((call) => call === 'pack-objects' || call === 'unpack-objects')).toEqual(['pack-objects', 'unpack-objects']);
    expect(calls).not.toContain('rev-list');
    expect(calls.length).toBeLessThanOrEqual(10);
    expect(existsSync(join(repo, '.git', 'objects', 'info', 'alternates'))).toBe(false);
  });

  it('leaves the repository whole without the store: every object of the branch is its own', async () => {
    const { dir, dataDir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    writeFileSync(join(repo, 'docs', 'new.txt'), 'a new file\n');
    writeFileSync(join(repo, 'src', 'f0.txt'), 'changed\n');
    rmSync(join(repo, 'src', 'f1.txt'));
    const atCut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    await worktrees.prepare({ sourceId: 'src', sourceCwd: repo, checkpoint: { seq: 1, tree: atCut.tree }, name: 'w', childId: 'w-id' });
    rmSync(join(dataDir, '.workspaces.git'), { recursive: true, force: true });
    gitIn(repo, 'fsck', '--strict', '--no-dangling');
    expect(gitIn(repo, 'show', 'dsh/w:docs/new.txt')).toBe('a new file\n');
    expect(gitIn(repo, 'ls-tree', '-r', '--name-only', 'dsh/w', 'src').split('\n')).not.toContain('src/f1.txt');
  });

  it('keeps a large copy as one pack instead of a loose object per file', async () => {
    const { dir, dataDir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    mkdirSync(join(repo, 'generated'));
    for (let at = 0; at < 150; at += 1) writeFileSync(join(repo, 'generated', `g${String(at)}.txt`), `generated ${String(at)}\n`);
    const atCut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    const before = objectCounts(repo);
    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: repo,
      checkpoint: { seq: 1, tree: atCut.tree },
      name: 'big',
      childId: 'big-id',
    });
    // 150 blobs and two trees in one new pack; the commit alone is loose.
    expect(objectCounts(repo)).toEqual({ count: before.count + 1, packs: before.packs + 1 });
    expect(readFileSync(join(made.dir, 'generated', 'g149.txt'), 'utf8')).toBe('generated 149\n');
    rmSync(join(dataDir, '.workspaces.git'), { recursive: true, force: true });
    gitIn(repo, 'fsck', '--strict', '--no-dangling');
  });

  it('from a cwd below the checkout root copies only that folder’s changes and keeps the rest at HEAD', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    const cwd = join(repo, 'pkg', 'lib');
    writeFileSync(join(cwd, 'f2.txt'), 'at the cut\n');
    const atCut = await store.checkpoint(cwd, { sessionId: 'src', ...ROOMY });
    writeFileSync(join(repo, 'README.md'), 'outside the cwd, not committed\n');
    const before = objectCounts(repo);
    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: cwd,
      checkpoint: { seq: 1, tree: atCut.tree },
      name: 's',
      childId: 's-id',
    });
    expect(made.dir).toMatch(/[/\\]s[/\\]pkg[/\\]lib$/);
    expect(readFileSync(join(made.dir, 'f2.txt'), 'utf8')).toBe('at the cut\n');
    expect(readFileSync(join(made.dir, '..', '..', 'README.md'), 'utf8')).toBe('top\n');
    // The blob and lib's tree copied; pkg's and the root's new trees and the commit written in the repository.
    expect(objectCounts(repo).count - before.count).toBe(5);
    gitIn(repo, 'fsck', '--strict', '--no-dangling');
  });

  it('from a cwd in folders HEAD does not have yet places it there, beside the files of HEAD', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    const cwd = join(repo, 'pkg', 'new', 'deep');
    mkdirSync(cwd, { recursive: true });
    writeFileSync(join(cwd, 'x.txt'), 'new at the cut\n');
    const atCut = await store.checkpoint(cwd, { sessionId: 'src', ...ROOMY });
    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: cwd,
      checkpoint: { seq: 1, tree: atCut.tree },
      name: 'n',
      childId: 'n-id',
    });
    expect(readFileSync(join(made.dir, 'x.txt'), 'utf8')).toBe('new at the cut\n');
    expect(gitIn(repo, 'ls-tree', '-r', '--name-only', 'dsh/n', 'pkg').trim().split('\n')).toEqual([
      ...Array.from({ length: 10 }, (_unused, at) => `pkg/lib/f${String(at)}.txt`),
      'pkg/new/deep/x.txt',
    ]);
    gitIn(repo, 'fsck', '--strict', '--no-dangling');
  });

  it('copies nothing and makes no commit when the checkpoint is HEAD’s tree', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = packedRepo(dir.path);
    const atCut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    const before = objectCounts(repo);
    const log = join(dir.path, 'git.log');
    await withPath(countingGit(join(dir.path, 'bin'), log), () =>
      worktrees.prepare({ sourceId: 'src', sourceCwd: repo, checkpoint: { seq: 1, tree: atCut.tree }, name: 'h', childId: 'h-id' }),
    );
    expect(objectCounts(repo)).toEqual(before);
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).not.toContain('pack-objects');
    expect(calls).not.toContain('commit-tree');
    expect(gitIn(repo, 'rev-parse', 'dsh/h')).toBe(gitIn(repo, 'rev-parse', 'HEAD'));
  });

  it('reads a store whose path holds a colon (alternates are a colon-separated list)', async () => {
    const { dir, store, worktrees } = await setup('da:ta "q"');
    await using _ = dir;
    const repo = packedRepo(dir.path);
    writeFileSync(join(repo, 'src', 'f3.txt'), 'at the cut\n');
    const atCut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: repo,
      checkpoint: { seq: 1, tree: atCut.tree },
      name: 'k',
      childId: 'k-id',
    });
    expect(readFileSync(join(made.dir, 'src', 'f3.txt'), 'utf8')).toBe('at the cut\n');
    expect(alternateEntry('/plain/path')).toBe('/plain/path');
    expect(alternateEntry('/a:b/"c"')).toBe('"/a:b/\\"c\\""');
  });
});
