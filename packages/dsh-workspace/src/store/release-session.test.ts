/**
 * Deleting a session releases its checkpoints: objects only it reached are collected, another
 * session's checkpoints and the workspace's next checkpoint stay whole.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';

/** A budget no loaded test machine runs out of (the budget's own test sets its own). */
const ROOMY = { budgetMs: 600_000 };
import { openWorkspaceStore } from '../open-workspace-store.js';
import { WorkspaceError } from '../workspace-error.js';

function has(storeDir: string, object: string): boolean {
  try {
    execFileSync('git', ['--git-dir', storeDir, 'cat-file', '-e', object], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function blobOf(content: string): string {
  return execFileSync('git', ['hash-object', '--stdin'], { input: content, encoding: 'utf8' }).trim();
}

describe('WorkspaceStore.release', () => {
  it('collects what only the released session reached and keeps the rest', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'shared.txt'), 'both sessions\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git'), pruneGraceMs: 0 });
    const kept = await store.checkpoint(ws, { sessionId: 'keep', ...ROOMY });
    writeFileSync(join(ws, 'only-a.txt'), 'only session a saw this\n');
    const a = await store.checkpoint(ws, { sessionId: 'a', ...ROOMY });
    writeFileSync(join(ws, 'only-a.txt'), 'then this, also only a\n');
    const a2 = await store.checkpoint(ws, { sessionId: 'a', ...ROOMY });
    writeFileSync(join(ws, 'only-a.txt'), 'the workspace now\n');
    await store.checkpoint(ws, { sessionId: 'b', ...ROOMY });

    await store.release('a');
    expect(has(store.dir, a.tree)).toBe(false);
    expect(has(store.dir, a2.tree)).toBe(false);
    expect(has(store.dir, blobOf('only session a saw this\n'))).toBe(false);
    expect(has(store.dir, kept.tree)).toBe(true);
    expect(has(store.dir, blobOf('both sessions\n'))).toBe(true);
    expect((await store.listFiles(kept.tree)).map((file) => file.path)).toEqual(['shared.txt']);
    // The workspace's index still names live objects: the next checkpoint of unchanged files works.
    const next = await store.checkpoint(ws, { sessionId: 'c', ...ROOMY });
    expect((await store.listFiles(next.tree)).map((file) => file.path)).toEqual(['only-a.txt', 'shared.txt']);

    await store.release('b');
    await store.release('c');
    await store.release('keep');
    expect(has(store.dir, kept.tree)).toBe(false);
  });

  it('a fork child that inherited its parent’s checkpoints keeps their files when the parent is released', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'at-the-cut.txt'), 'the parent’s file at the cut\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git'), pruneGraceMs: 0 });
    const cut = await store.checkpoint(ws, { sessionId: 'parent', ...ROOMY });
    writeFileSync(join(ws, 'at-the-cut.txt'), 'later\n');
    await store.checkpoint(ws, { sessionId: 'parent', ...ROOMY });
    await store.inherit('child', 'parent');
    await store.inherit('orphan', 'never-checkpointed');

    await store.release('parent');
    expect(has(store.dir, cut.tree)).toBe(true);
    expect(has(store.dir, blobOf('the parent’s file at the cut\n'))).toBe(true);
    await store.release('child');
    expect(has(store.dir, cut.tree)).toBe(false);
  });

  it('keeps recent objects for a checkpoint in flight (the default grace)', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a.txt'), 'a\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const a = await store.checkpoint(ws, { sessionId: 'a', ...ROOMY });
    await store.release('a');
    expect(has(store.dir, a.tree)).toBe(true);
    const bad = await store.release('').catch((error: unknown) => error);
    expect(WorkspaceError.is(bad) && bad.code).toBe('INVALID_OPTION');
  });
});
