/**
 * SPEC §23 on PostgreSQL: hosts share the session log, not their workspace stores. A checkpoint
 * records the host and store that hold its files; another host's store refuses it
 * `WORKSPACE_UNAVAILABLE` naming them, before a worktree fork makes anything.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { openWorkspaceStore } from '../open-workspace-store.js';
import { workspaceAt } from '../workspace-at.js';
import { WorkspaceError } from '../workspace-error.js';
import { openWorktrees } from '../worktrees/open-worktrees.js';

const ROOMY = { budgetMs: 600_000 };

async function refusal(promise: Promise<unknown>): Promise<WorkspaceError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!WorkspaceError.is(error)) throw new Error(`expected a WorkspaceError, got ${String(error)}`);
  return error;
}

describe('a checkpoint on another host', () => {
  it('records the host and store that hold its files, and workspaceAt reads them back', async () => {
    await using dir = await makeTempDir();
    mkdirSync(join(dir.path, 'ws'));
    const store = openWorkspaceStore({ dir: join(dir.path, 'a.git') });
    expect(store.host).toBe(hostname());
    const taken = await store.checkpoint(join(dir.path, 'ws'), { sessionId: 's', ...ROOMY });
    expect(taken).toMatchObject({ host: hostname(), storeDir: store.dir });
    const event = { seq: 3, type: 'workspace/checkpoint', data: { tree: taken.tree, after: 'call', ms: 1, host: 'alpha', storeDir: '/a' } };
    expect(workspaceAt([event], 3)).toEqual({ seq: 3, tree: taken.tree, host: 'alpha', storeDir: '/a' });
    await expect(store.require(workspaceAt([event], 3) ?? { tree: '' })).resolves.toBeUndefined();
  });

  it('is refused WORKSPACE_UNAVAILABLE naming the host and store that have it', async () => {
    await using dir = await makeTempDir();
    mkdirSync(join(dir.path, 'ws'));
    writeFileSync(join(dir.path, 'ws', 'a.txt'), 'a\n');
    const alpha = openWorkspaceStore({ dir: join(dir.path, 'alpha.git'), host: 'alpha' });
    const beta = openWorkspaceStore({ dir: join(dir.path, 'beta.git'), host: 'beta' });
    const taken = await alpha.checkpoint(join(dir.path, 'ws'), { sessionId: 's', ...ROOMY });
    const checkpoint = { seq: 7, tree: taken.tree, host: taken.host, storeDir: taken.storeDir };

    const other = await refusal(beta.require(checkpoint));
    expect(other.code).toBe('WORKSPACE_UNAVAILABLE');
    expect(other.message).toContain('seq 7');
    expect(other.message).toContain('host "alpha"');
    expect(other.message).toContain(alpha.dir);
    expect(other.message).toContain('host "beta"');

    const sameHost = openWorkspaceStore({ dir: join(dir.path, 'gamma.git'), host: 'alpha' });
    const elsewhere = await refusal(sameHost.require(checkpoint));
    expect(elsewhere.message).toContain(`taken on this host in the workspace store ${alpha.dir}`);

    const unrecorded = await refusal(beta.require({ tree: taken.tree }));
    expect(unrecorded.message).toContain('does not record the host');
  });

  it('refuses a worktree fork on the host without the files before making anything', async () => {
    await using dir = await makeTempDir();
    const repo = join(dir.path, 'repo');
    mkdirSync(repo);
    execFileSync('git', ['init', '-q', '-b', 'main', repo]);
    writeFileSync(join(repo, 'a.txt'), 'a\n');
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'one']);
    const alpha = openWorkspaceStore({ dir: join(dir.path, 'alpha', '.workspaces.git'), host: 'alpha' });
    const taken = await alpha.checkpoint(repo, { sessionId: 's', ...ROOMY });
    const dataDir = join(dir.path, 'beta');
    mkdirSync(dataDir);
    const worktrees = openWorktrees({ dataDir, store: openWorkspaceStore({ dir: join(dataDir, '.workspaces.git'), host: 'beta' }) });
    const checkpoint = { seq: 2, tree: taken.tree, host: taken.host, storeDir: taken.storeDir };
    const refused = await refusal(worktrees.prepare({ sourceId: 's', sourceCwd: repo, checkpoint, name: 'child', childId: 'c' }));
    expect(refused.code).toBe('WORKSPACE_UNAVAILABLE');
    const peers = await refusal(worktrees.preparePeers({ sourceId: 's', sourceCwd: repo, checkpoint, peers: [{ name: 'p1' }] }));
    expect(peers.code).toBe('WORKSPACE_UNAVAILABLE');
    expect(existsSync(join(dataDir, 'worktrees'))).toBe(false);
    expect(execFileSync('git', ['-C', repo, 'branch', '--list', 'dsh/*'], { encoding: 'utf8' }).trim()).toBe('');
  });
});
