/**
 * A checkpoint written into a new directory (exactly its files), diffs between checkpoints and the
 * files now, and the refusals around them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';

/** A budget no loaded test machine runs out of (the budget's own test sets its own). */
const ROOMY = { budgetMs: 600_000 };
import { openWorkspaceStore } from '../open-workspace-store.js';
import { WorkspaceError } from '../workspace-error.js';

function codeOf(error: unknown): string | undefined {
  return WorkspaceError.is(error) ? error.code : undefined;
}

describe('WorkspaceStore.materialize and diff', () => {
  it('writes exactly the checkpoint’s files, not today’s, into a new directory', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'a.ts'), 'old\n');
    writeFileSync(join(ws, 'run.sh'), '#!/bin/sh\n', { mode: 0o755 });
    symlinkSync('src/a.ts', join(ws, 'link'));
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const cut = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    writeFileSync(join(ws, 'src', 'a.ts'), 'new\n');
    writeFileSync(join(ws, 'later.txt'), 'later\n');
    rmSync(join(ws, 'run.sh'));

    const target = join(dir.path, 'forks', 'child');
    const made = await store.materialize(cut.tree, target);
    expect(made.dir).toBe(target);
    expect(readdirSync(target).sort()).toEqual(['link', 'run.sh', 'src']);
    expect(readFileSync(join(target, 'src', 'a.ts'), 'utf8')).toBe('old\n');
    expect(readlinkSync(join(target, 'link'))).toBe('src/a.ts');
    expect(execFileSync('stat', ['-c', '%a', join(target, 'run.sh')], { encoding: 'utf8' }).trim()).toBe('755');

    const now = await store.diff(cut.tree, { cwd: ws });
    expect(now.changes).toEqual([
      { path: 'later.txt', change: 'added' },
      { path: 'run.sh', change: 'deleted' },
      { path: 'src/a.ts', change: 'modified' },
    ]);
    const later = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    expect((await store.diff(cut.tree, later.tree)).changes).toEqual(now.changes);
    expect((await store.diff(later.tree, later.tree)).changes).toEqual([]);
  });

  it('refuses WORKTREE_EXISTS for an existing target, WORKSPACE_UNAVAILABLE for a tree it lacks, INVALID_OPTION for a non-id', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(ws);
    writeFileSync(join(ws, 'a'), 'a\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const { tree } = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    const taken = join(dir.path, 'taken');
    mkdirSync(taken);
    writeFileSync(join(taken, 'mine'), 'keep\n');
    const exists = await store.materialize(tree, taken).catch((error: unknown) => error);
    expect(codeOf(exists)).toBe('WORKTREE_EXISTS');
    expect(readdirSync(taken)).toEqual(['mine']);

    const other = openWorkspaceStore({ dir: join(dir.path, 'other.git') });
    const unavailable = await other.materialize(tree, join(dir.path, 'new')).catch((error: unknown) => error);
    expect(codeOf(unavailable)).toBe('WORKSPACE_UNAVAILABLE');
    expect(existsSync(join(dir.path, 'new'))).toBe(false);
    expect(codeOf(await other.listFiles(tree).catch((error: unknown) => error))).toBe('WORKSPACE_UNAVAILABLE');
    const invalid = await store.diff('HEAD', tree).catch((error: unknown) => error);
    expect(codeOf(invalid)).toBe('INVALID_OPTION');
    expect((invalid as Error).message).toBe('Expected from to be a tree id (40 or 64 hex digits); got "HEAD".');
  });
});
