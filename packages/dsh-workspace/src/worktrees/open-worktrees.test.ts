/**
 * The worktree maker of a data folder: a child's directory holds the workspace at the cut (a git
 * worktree on dsh/<name> in a checkout, a folder elsewhere), HEAD with a warning without a checkpoint,
 * its refusals made before anything exists, and the intents a killed fork leaves cleaned.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { openWorkspaceStore } from '../open-workspace-store.js';
import { openWorktrees } from './open-worktrees.js';

const ROOMY = { budgetMs: 600_000 };

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
}

/** A checkout with one commit of `a.txt` = `committed`. */
function repoWithCommit(root: string): string {
  const repo = join(root, 'repo');
  mkdirSync(repo, { recursive: true });
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'a.txt'), 'committed\n');
  gitIn(repo, 'add', 'a.txt');
  gitIn(repo, 'commit', '-q', '-m', 'one');
  return repo;
}

async function setup() {
  const dir = await makeTempDir();
  const dataDir = join(dir.path, 'data');
  mkdirSync(dataDir);
  const store = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
  return { dir, dataDir, store, worktrees: openWorktrees({ dataDir, store }) };
}

describe('openWorktrees', () => {
  it('prepare makes a worktree on dsh/<name> holding the checkpoint, not the files changed since', async () => {
    const { dir, dataDir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    writeFileSync(join(repo, 'a.txt'), 'at the cut\n');
    const cut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    writeFileSync(join(repo, 'a.txt'), 'after the cut\n');

    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: repo,
      checkpoint: { seq: 4, tree: cut.tree },
      name: 'child',
      childId: 'child-id',
    });
    expect(made).toMatchObject({
      workspace: 'checkpoint',
      branch: 'dsh/child',
      checkpointSeq: 4,
      dir: join(dataDir, 'worktrees', 'child'),
    });
    expect(made.warning).toBeUndefined();
    expect(readFileSync(join(made.dir, 'a.txt'), 'utf8')).toBe('at the cut\n');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('after the cut\n');
    expect(gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/dsh/child').trim()).toBe('dsh/child');
    // The child's intent is recorded: deleting the child takes its directory and branch.
    expect(await worktrees.removeFor('child-id')).toEqual([join(dataDir, 'worktrees', 'child')]);
    expect(existsSync(made.dir)).toBe(false);
    expect(gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/dsh/child').trim()).toBe('');
  });

  it('prepare without a checkpoint gives HEAD and a warning that says so', async () => {
    const { dir, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    writeFileSync(join(repo, 'a.txt'), 'uncommitted\n');
    const made = await worktrees.prepare({ sourceId: 'src', sourceCwd: repo, checkpoint: undefined, name: 'h', childId: 'h-id' });
    expect(made.workspace).toBe('head');
    expect(made.warning).toContain('no workspace checkpoint');
    expect(readFileSync(join(made.dir, 'a.txt'), 'utf8')).toBe('committed\n');
    await made.undo();
    expect(existsSync(made.dir)).toBe(false);
  });

  it('prepare outside git writes the checkpoint into a folder; without one it refuses NOT_A_GIT_REPOSITORY', async () => {
    const { dir, dataDir, store, worktrees } = await setup();
    await using _ = dir;
    const plain = join(dir.path, 'plain');
    mkdirSync(plain);
    writeFileSync(join(plain, 'notes.md'), 'at the cut\n');
    const cut = await store.checkpoint(plain, { sessionId: 'src', ...ROOMY });
    writeFileSync(join(plain, 'notes.md'), 'later\n');
    const made = await worktrees.prepare({
      sourceId: 'src',
      sourceCwd: plain,
      checkpoint: { seq: 2, tree: cut.tree },
      name: 'p',
      childId: 'p-id',
    });
    expect(made).toMatchObject({ workspace: 'checkpoint', dir: join(dataDir, 'worktrees', 'p'), checkpointSeq: 2 });
    expect(made.branch).toBeUndefined();
    expect(readFileSync(join(made.dir, 'notes.md'), 'utf8')).toBe('at the cut\n');
    await expect(
      worktrees.prepare({ sourceId: 'src', sourceCwd: plain, checkpoint: undefined, name: 'q', childId: 'q-id' }),
    ).rejects.toMatchObject({ code: 'NOT_A_GIT_REPOSITORY' });
    expect(existsSync(join(dataDir, 'worktrees', 'q'))).toBe(false);
  });

  it('refuses NO_WORKSPACE, WORKTREE_EXISTS and BRANCH_EXISTS before anything is made', async () => {
    const { dir, dataDir, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    const base = { sourceId: 'src', checkpoint: undefined, childId: 'x-id' };
    await expect(worktrees.prepare({ ...base, sourceCwd: undefined, name: 'x' })).rejects.toMatchObject({ code: 'NO_WORKSPACE' });
    await expect(worktrees.prepare({ ...base, sourceCwd: join(dir.path, 'gone'), name: 'x' })).rejects.toMatchObject({
      code: 'NO_WORKSPACE',
    });
    await worktrees.prepare({ ...base, sourceCwd: repo, name: 'x' });
    await expect(worktrees.prepare({ ...base, sourceCwd: repo, name: 'x', childId: 'other' })).rejects.toMatchObject({
      code: 'BRANCH_EXISTS',
    });
    gitIn(repo, 'branch', 'dsh/taken');
    await expect(worktrees.prepare({ ...base, sourceCwd: repo, name: 'taken', childId: 'other' })).rejects.toMatchObject({
      code: 'BRANCH_EXISTS',
    });
    mkdirSync(join(dataDir, 'worktrees', 'squatter'), { recursive: true });
    await expect(worktrees.prepare({ ...base, sourceCwd: repo, name: 'squatter', childId: 'other' })).rejects.toMatchObject({
      code: 'WORKTREE_EXISTS',
    });
    await expect(worktrees.prepare({ ...base, sourceCwd: repo, name: '../out', childId: 'other' })).rejects.toMatchObject({
      code: 'INVALID_BRANCH_NAME',
    });
    // Only the first one's intent exists.
    expect(readdirSync(join(dataDir, 'worktrees', '.forks')).filter((file) => file.endsWith('.json'))).toEqual(['x.json']);
  });

  it('cleanOrphans removes the directory of a child that never came and whose process is gone', async () => {
    const { dir, dataDir, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    const made = await worktrees.prepare({ sourceId: 'src', sourceCwd: repo, checkpoint: undefined, name: 'o', childId: 'o-id' });
    // As a killed process left it: the same intent with a pid that no longer runs.
    const intentFile = join(dataDir, 'worktrees', '.forks', 'o.json');
    const intent = JSON.parse(readFileSync(intentFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(intentFile, JSON.stringify({ ...intent, pid: deadPid() }));
    expect(await worktrees.cleanOrphans((id) => id === 'someone-else')).toEqual(['o']);
    expect(existsSync(made.dir)).toBe(false);
    expect(gitIn(repo, 'for-each-ref', '--format=%(refname:short)', 'refs/heads/dsh/o').trim()).toBe('');
  });

  it('preparePeers gives every peer its own worktree at one commit of the checkpoint', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    writeFileSync(join(repo, 'a.txt'), 'at the cut\n');
    const cut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    writeFileSync(join(repo, 'a.txt'), 'after\n');
    const made = await worktrees.preparePeers({
      sourceId: 'src',
      sourceCwd: repo,
      checkpoint: { seq: 3, tree: cut.tree },
      peers: [{ name: 'pa', childId: 'pa-id' }, { name: 'pb' }],
    });
    expect(made).toMatchObject({ workspace: 'checkpoint', checkpointSeq: 3 });
    expect(made.dirs.map((entry) => entry.branch)).toEqual(['dsh/pa', 'dsh/pb']);
    for (const entry of made.dirs) expect(readFileSync(join(entry.dir, 'a.txt'), 'utf8')).toBe('at the cut\n');
    writeFileSync(join((made.dirs[0] as { dir: string }).dir, 'a.txt'), 'pa wrote this\n');
    expect(readFileSync(join((made.dirs[1] as { dir: string }).dir, 'a.txt'), 'utf8')).toBe('at the cut\n');
    expect(await worktrees.changedFiles((made.dirs[0] as { dir: string }).dir)).toEqual(['a.txt']);
    await made.undo();
    for (const entry of made.dirs) expect(existsSync(entry.dir)).toBe(false);
  });

  it('refuses to remove a worktree with a new file, and its hint commits the new file too', async () => {
    const { dir, store, worktrees } = await setup();
    await using _ = dir;
    const repo = repoWithCommit(dir.path);
    const cut = await store.checkpoint(repo, { sessionId: 'src', ...ROOMY });
    const made = await worktrees.preparePeers({
      sourceId: 'src',
      sourceCwd: repo,
      checkpoint: { seq: 1, tree: cut.tree },
      peers: [{ name: 'pa', childId: 'pa-id' }],
    });
    const peerDir = (made.dirs[0] as { dir: string }).dir;
    writeFileSync(join(peerDir, 'new-by-peer.txt'), 'a file git does not track yet\n');
    const refused = await worktrees.remove('pa').catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'WORKTREE_HAS_CHANGES' });
    const hint = (refused as { hint: string }).hint;
    const command = /\((git -C .+)\) or discard/.exec(hint)?.[1];
    expect(command, hint).toContain(' add -A && ');
    execFileSync('sh', ['-c', command as string], {
      env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t' },
    });
    expect(gitIn(peerDir, 'status', '--porcelain', '--untracked-files=all')).toBe('');
    expect(gitIn(peerDir, 'show', '--name-only', '--format=', 'HEAD').trim()).toBe('new-by-peer.txt');
    // The work is kept on its branch now: removal asks for a merge instead.
    await expect(worktrees.remove('pa')).rejects.toMatchObject({ code: 'BRANCH_NOT_MERGED' });
  });
});

/** A pid no process has (the highest pid the kernel hands out is well below it). */
function deadPid(): number {
  return 2 ** 22 + 12345;
}
