/**
 * `worktree: true` on `POST …/fork` and `POST …/peers` (SPEC §20, §23) with dsh-workspace's real
 * worktree maker, real git and temp repositories: each child gets its own directory holding the files
 * at the cut, is told so when a call was open there, and a host given no maker refuses typed.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { FORKED_WORKSPACE_AT_CUT_SENTENCE } from 'dsh-codec';
import { createKeylessModel, createScriptedModel, type Model } from 'dsh-agent';
import { createMemoryStore } from 'dsh-session';
import { openWorkspaceStore, openWorktrees } from 'dsh-workspace';
import { createHost, demoTools, type Host } from 'dsh-host';
import { call } from '../__fixtures__/http-call.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function gitIn(dir: string, ...args: string[]): string {
  return execFileSync('git', ['-C', dir, '-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { encoding: 'utf8' });
}

/** A data folder, a git checkout with `a.txt` committed, and a host with the real checkpoint store and worktree maker. */
async function setup(options: { model?: Model; checkpoints?: boolean; worktrees?: boolean } = {}) {
  const dir = await makeTempDir();
  const dataDir = join(dir.path, 'data');
  const repo = join(dir.path, 'repo');
  mkdirSync(dataDir);
  mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main', repo]);
  writeFileSync(join(repo, 'a.txt'), 'committed\n');
  gitIn(repo, 'add', 'a.txt');
  gitIn(repo, 'commit', '-q', '-m', 'one');
  const checkpoints = openWorkspaceStore({ dir: join(dataDir, '.workspaces.git') });
  const store = createMemoryStore();
  const host = createHost({
    store,
    model: options.model ?? createKeylessModel(),
    tools: demoTools(),
    ...(options.checkpoints === false ? {} : { checkpoints }),
    ...(options.worktrees === false ? {} : { worktrees: openWorktrees({ dataDir, store: checkpoints }) }),
  });
  cleanups.push(async () => {
    await host.close();
    await store.close();
    await dir.remove();
  });
  return { dataDir, repo, host };
}

async function cwdOf(host: Host, id: string): Promise<string | undefined> {
  return (await host.observe(id)).cwd;
}

describe('worktree: true over HTTP', () => {
  it('POST …/fork gives the child its own directory holding the files at the cut, its cwd', async () => {
    const { dataDir, repo, host } = await setup();
    const first = await host.query({ prompt: 'write a.txt: at the cut', cwd: repo });
    const cut = (await host.observe(first.sessionId)).events.at(-1)?.seq as number;
    await host.query({ prompt: 'write a.txt: after the cut', resume: first.sessionId });
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('after the cut');

    const { status, body } = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, {
      atSeq: cut,
      title: 'try-b',
      worktree: true,
    });
    expect(status).toBe(201);
    expect(body?.worktree).toMatchObject({ workspace: 'checkpoint', branch: 'dsh/try-b', dir: join(dataDir, 'worktrees', 'try-b') });
    expect(body?.worktree.checkpointSeq).toBeLessThanOrEqual(cut);
    expect(readFileSync(join(body?.worktree.dir as string, 'a.txt'), 'utf8')).toBe('at the cut');
    expect(await cwdOf(host, body?.sessionId as string)).toBe(body?.worktree.dir);
    // The child writes in its own directory; the parent's checkout keeps its files.
    await host.query({ prompt: 'write a.txt: the child', resume: body?.sessionId as string });
    expect(readFileSync(join(body?.worktree.dir as string, 'a.txt'), 'utf8')).toBe('the child');
    expect(readFileSync(join(repo, 'a.txt'), 'utf8')).toBe('after the cut');
  });

  it('a call open at the cut is told the child’s files are as they were before it started', async () => {
    const model = createScriptedModel([
      { toolCalls: [{ name: 'write_file', arguments: { path: 'a.txt', content: 'written by the call\n' } }] },
      { text: 'done' },
      { text: 'the peer' },
    ]);
    const { repo, host } = await setup({ model });
    const first = await host.query({ prompt: 'go', cwd: repo });
    const callEvent = (await host.observe(first.sessionId)).events.find((event) => event.type === 'tool/call');
    const { status, body } = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, { atSeq: callEvent?.seq, worktree: true });
    expect(status).toBe(201);
    expect(body?.worktree.workspace).toBe('checkpoint');
    expect(readFileSync(join(body?.worktree.dir as string, 'a.txt'), 'utf8')).toBe('committed\n');
    const closer = (await host.observe(body?.sessionId as string)).events.find(
      (event) => event.seq > (callEvent?.seq ?? 0) && event.type === 'tool/result',
    );
    expect(JSON.stringify(closer?.data)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);

    // host.peers passes workspace: 'at-cut' for peers whose directory holds the checkpoint too.
    const peers = await call(host, 'POST', `/api/sessions/${first.sessionId}/peers`, {
      atSeq: callEvent?.seq,
      worktree: true,
      peers: [{ prompt: 'again', title: 'peer-at-call' }],
    });
    expect(peers.status).toBe(201);
    const peerCloser = (await host.observe(peers.body?.peers[0].sessionId as string)).events.find(
      (event) => event.seq > (callEvent?.seq ?? 0) && event.type === 'tool/result',
    );
    expect(JSON.stringify(peerCloser?.data)).toContain(FORKED_WORKSPACE_AT_CUT_SENTENCE);
  });

  it('without a checkpoint at the cut the directory holds HEAD and the answer says so', async () => {
    const { repo, host } = await setup({ checkpoints: false });
    const first = await host.query({ prompt: 'write a.txt: uncommitted', cwd: repo });
    const { status, body } = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, { worktree: true });
    expect(status).toBe(201);
    expect(body?.worktree.workspace).toBe('head');
    expect(body?.worktree.warning).toContain('no workspace checkpoint');
    expect(readFileSync(join(body?.worktree.dir as string, 'a.txt'), 'utf8')).toBe('committed\n');
  });

  it('a host started without a worktree maker refuses WORKTREES_UNAVAILABLE and forks nothing', async () => {
    const { repo, host } = await setup({ worktrees: false });
    const first = await host.query({ prompt: 'list files', cwd: repo });
    const before = (await host.list()).length;
    const fork = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, { worktree: true });
    expect([fork.status, fork.body?.error.code]).toEqual([422, 'WORKTREES_UNAVAILABLE']);
    expect(fork.body?.error.message).toContain('without a data folder for worktrees');
    const peers = await call(host, 'POST', `/api/sessions/${first.sessionId}/peers`, { worktree: true, peers: [{ prompt: 'list files' }] });
    expect([peers.status, peers.body?.error.code]).toEqual([422, 'WORKTREES_UNAVAILABLE']);
    expect((await host.list()).length).toBe(before);
  });

  it('refuses worktree: true with config.cwd, and a taken branch BRANCH_EXISTS, leaving no directory', async () => {
    const { dataDir, repo, host } = await setup();
    const first = await host.query({ prompt: 'list files', cwd: repo });
    const both = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, { worktree: true, config: { cwd: repo } });
    expect([both.status, both.body?.error.code]).toEqual([400, 'INVALID_OPTION']);
    gitIn(repo, 'branch', 'dsh/taken');
    const taken = await call(host, 'POST', `/api/sessions/${first.sessionId}/fork`, { worktree: true, title: 'taken' });
    expect([taken.status, taken.body?.error.code]).toEqual([409, 'BRANCH_EXISTS']);
    expect(existsSync(join(dataDir, 'worktrees', 'taken'))).toBe(false);
  });

  it('a child that cannot be forked leaves no directory; deleting a child removes its directory and branch', async () => {
    const { dataDir, repo, host } = await setup();
    const first = await host.query({ prompt: 'list files', cwd: repo });
    const failed = await host.fork(first.sessionId, { worktree: true, title: 'dup', id: first.sessionId }).catch((error: unknown) => error);
    expect((failed as { code?: string }).code).toBe('SESSION_EXISTS');
    expect(existsSync(join(dataDir, 'worktrees', 'dup'))).toBe(false);
    expect(gitIn(repo, 'for-each-ref', 'refs/heads/dsh/dup')).toBe('');

    const child = await host.fork(first.sessionId, { worktree: true, title: 'kept' });
    expect(existsSync(child.worktree?.dir as string)).toBe(true);
    await host.release(child.sessionId);
    await host.delete(child.sessionId);
    expect(existsSync(child.worktree?.dir as string)).toBe(false);
    expect(gitIn(repo, 'for-each-ref', 'refs/heads/dsh/kept')).toBe('');
  });

  it('POST …/peers with worktree: true gives each peer its own directory at the cut; they write the same file apart', async () => {
    const { repo, host } = await setup();
    const first = await host.query({ prompt: 'write a.txt: at the cut', cwd: repo });
    const { status, body } = await call(host, 'POST', `/api/sessions/${first.sessionId}/peers`, {
      worktree: true,
      peers: [
        { prompt: 'write notes.md: from pa', title: 'pa' },
        { prompt: 'write notes.md: from pb', title: 'pb' },
      ],
    });
    expect(status).toBe(201);
    const [pa, pb] = body?.peers as { sessionId: string; worktree: { dir: string; branch: string; workspace: string } }[];
    expect([pa?.worktree.branch, pb?.worktree.branch]).toEqual(['dsh/pa', 'dsh/pb']);
    expect([pa?.worktree.workspace, pb?.worktree.workspace]).toEqual(['checkpoint', 'checkpoint']);
    await host.idle(pa?.sessionId as string);
    await host.idle(pb?.sessionId as string);
    expect(readFileSync(join(pa?.worktree.dir as string, 'notes.md'), 'utf8')).toBe('from pa');
    expect(readFileSync(join(pb?.worktree.dir as string, 'notes.md'), 'utf8')).toBe('from pb');
    expect(readFileSync(join(pa?.worktree.dir as string, 'a.txt'), 'utf8')).toBe('at the cut');
    expect(existsSync(join(repo, 'notes.md'))).toBe(false);
    expect(await cwdOf(host, pa?.sessionId as string)).toBe(pa?.worktree.dir);
  });
});
