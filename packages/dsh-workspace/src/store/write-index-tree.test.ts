/**
 * A checkpoint after a few changed files writes the changed folders' trees itself (two git processes,
 * as `git add -A && git write-tree`), and its trees are exactly the ones `git write-tree` writes from
 * the same index: same ids, objects git reads and `fsck` accepts.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { afterEach, describe, expect, it } from 'vitest';
import { openWorkspaceStore } from '../open-workspace-store.js';
import { MAX_INVALID_FOLDERS } from './write-index-tree.js';

const ROOMY = { budgetMs: 600_000 };
const git = (gitDir: string, args: string[], env: Record<string, string> = {}): string =>
  execFileSync('git', ['--git-dir', gitDir, ...args], { env: { ...process.env, ...env }, encoding: 'utf8' });

/** The tree `git write-tree` writes from a copy of the store's only workspace index. */
function gitWriteTree(storeDir: string): string {
  const indexes = join(storeDir, 'dsh', 'indexes');
  const [name] = readdirSync(indexes);
  const copy = join(storeDir, 'dsh', 'tmp', 'compare-index');
  copyFileSync(join(indexes, name ?? ''), copy);
  try {
    return git(storeDir, ['write-tree'], { GIT_INDEX_FILE: copy }).trim();
  } finally {
    rmSync(copy, { force: true });
  }
}

const originalPath = process.env.PATH;
afterEach(() => {
  process.env.PATH = originalPath;
});

/** Puts a `git` first on PATH that logs its subcommand to `log` and runs the real git. */
function countGitProcesses(dir: string): string {
  const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
  const bin = join(dir, 'bin');
  const log = join(dir, 'git-calls.log');
  mkdirSync(bin);
  writeFileSync(log, '');
  writeFileSync(join(bin, 'git'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${realGit}' "$@"\n`, { mode: 0o755 });
  process.env.PATH = `${bin}:${originalPath ?? ''}`;
  return log;
}

describe('a checkpoint writes the changed folders’ trees itself', () => {
  it('after one changed file it runs two git processes, as git add -A && git write-tree does', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, 'src', 'a'), { recursive: true });
    for (let at = 0; at < 20; at += 1) writeFileSync(join(ws, 'src', 'a', `f${String(at)}.ts`), `${String(at)}\n`);
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    writeFileSync(join(ws, 'src', 'a', 'f3.ts'), 'changed\n');
    const log = countGitProcesses(dir.path);
    const { tree } = await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    const calls = readFileSync(log, 'utf8').trim().split('\n');
    expect(calls).toHaveLength(2);
    expect(
      calls.map((line) => (line.includes(' ls-files ') ? 'ls-files' : line.includes(' update-index ') ? 'update-index' : line)),
    ).toEqual(['ls-files', 'update-index']);
    process.env.PATH = originalPath;
    expect(tree).toBe(gitWriteTree(store.dir));
    expect(git(store.dir, ['cat-file', '-p', `${tree}:src/a/f3.ts`])).toBe('changed\n');
  });

  it('writes the same trees as git write-tree, through adds, deletes, modes, links, odd names and new folders', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, 'src', 'deep', 'er'), { recursive: true });
    mkdirSync(join(ws, 'docs'));
    writeFileSync(join(ws, 'src', 'deep', 'er', 'x.ts'), 'x\n');
    writeFileSync(join(ws, 'src', 'a.ts'), 'a\n');
    writeFileSync(join(ws, 'src', 'a-b.ts'), 'ab\n');
    writeFileSync(join(ws, 'src', 'a0.ts'), 'a0\n');
    writeFileSync(join(ws, 'docs', 'gone.md'), 'g\n');
    writeFileSync(join(ws, 'top.txt'), 't\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const trees = [(await store.checkpoint(ws, { sessionId: 's', ...ROOMY })).tree];
    const steps: (() => void)[] = [
      () => {
        writeFileSync(join(ws, 'src', 'deep', 'er', 'x.ts'), 'x2\n');
      },
      () => {
        mkdirSync(join(ws, 'src', 'a'));
        writeFileSync(join(ws, 'src', 'a', 'inner.ts'), 'a dir next to a.ts and a-b.ts\n');
      },
      () => {
        rmSync(join(ws, 'docs', 'gone.md'));
      },
      () => {
        chmodSync(join(ws, 'top.txt'), 0o755);
      },
      () => {
        symlinkSync('src/a.ts', join(ws, 'link'));
      },
      () => {
        writeFileSync(join(ws, 'src', 'naïve name é.ts'), 'utf-8 name\n');
      },
      () => {
        rmSync(join(ws, 'src', 'deep'), { recursive: true });
      },
      () => undefined,
    ];
    for (const [number, step] of steps.entries()) {
      step();
      mkdirSync(join(dir.path, `step-${String(number)}`));
      const log = countGitProcesses(join(dir.path, `step-${String(number)}`));
      const { tree } = await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
      expect(readFileSync(log, 'utf8')).not.toContain('write-tree');
      process.env.PATH = originalPath;
      expect(tree).toBe(gitWriteTree(store.dir));
      trees.push(tree);
    }
    expect(new Set(trees).size).toBe(steps.length); // the last step changed nothing: the same tree
    expect(
      git(store.dir, ['ls-tree', '-r', '--name-only', '-z', trees.at(-1) ?? ''])
        .split('\0')
        .filter(Boolean),
    ).toEqual(['link', 'src/a-b.ts', 'src/a.ts', 'src/a/inner.ts', 'src/a0.ts', 'src/naïve name é.ts', 'top.txt']);
    git(store.dir, ['fsck', '--strict', '--no-dangling']);
  });

  it('leaves many changed folders to git write-tree, which writes the cache-tree back', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    const folders = MAX_INVALID_FOLDERS + 5;
    for (let at = 0; at < folders; at += 1) {
      mkdirSync(join(ws, `d${String(at)}`), { recursive: true });
      writeFileSync(join(ws, `d${String(at)}`, 'f.txt'), 'one\n');
    }
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    for (let at = 0; at < folders; at += 1) writeFileSync(join(ws, `d${String(at)}`, 'f.txt'), 'two\n');
    const log = countGitProcesses(dir.path);
    const { tree } = await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    expect(readFileSync(log, 'utf8')).toContain('write-tree');
    process.env.PATH = originalPath;
    expect(tree).toBe(gitWriteTree(store.dir));
    // The next checkpoint after one change is back to two processes: git wrote the cache-tree back.
    writeFileSync(join(ws, 'd0', 'f.txt'), 'three\n');
    mkdirSync(join(dir.path, 'again'));
    const next = countGitProcesses(join(dir.path, 'again'));
    await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    expect(readFileSync(next, 'utf8').trim().split('\n')).toHaveLength(2);
  });

  it('gives git write-tree the rest of the budget, not one second, on a loaded machine (the first checkpoint)', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'one\n');
    // A git whose write-tree takes 1.5 s, as a 10,000-file first checkpoint did at load 12.
    const realGit = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();
    const bin = join(dir.path, 'slow-bin');
    mkdirSync(bin);
    const script = `#!/bin/sh\ncase " $* " in *" write-tree "*) sleep 1.5 ;; esac\nexec '${realGit}' "$@"\n`;
    writeFileSync(join(bin, 'git'), script, { mode: 0o755 });
    process.env.PATH = `${bin}:${originalPath ?? ''}`;
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const { tree, skipped } = await store.checkpoint(ws, { sessionId: 's', ...ROOMY });
    process.env.PATH = originalPath;
    expect(skipped ?? []).toEqual([]);
    expect(git(store.dir, ['cat-file', '-p', `${tree}:a.txt`])).toBe('one\n');
  });
});
