/**
 * Restore in place: known files go back to the checkpoint, files no checkpoint captured stay and are
 * listed, and a checkpoint taken before makes it undoable.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';

/** A budget no loaded test machine runs out of (the budget's own test sets its own). */
const ROOMY = { budgetMs: 600_000 };
import { openWorkspaceStore } from '../open-workspace-store.js';

describe('WorkspaceStore.restore', () => {
  it('changes only files the checkpoints know, leaves and lists the others, and can be undone', async () => {
    await using dir = await makeTempDir();
    const ws = join(dir.path, 'ws');
    mkdirSync(join(ws, 'src'), { recursive: true });
    writeFileSync(join(ws, 'src', 'a.ts'), 'one\n');
    writeFileSync(join(ws, 'gone.txt'), 'deleted later\n');
    writeFileSync(join(ws, '.gitignore'), '*.log\n');
    const store = openWorkspaceStore({ dir: join(dir.path, '.workspaces.git') });
    const cut = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    writeFileSync(join(ws, 'src', 'a.ts'), 'two\n');
    writeFileSync(join(ws, 'src', 'b.ts'), 'written by the session\n');
    const { rmSync } = await import('node:fs');
    rmSync(join(ws, 'gone.txt'));
    const later = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    writeFileSync(join(ws, 'notes.md'), 'the user’s own, never captured\n');
    writeFileSync(join(ws, 'debug.log'), 'ignored\n');

    const undo = await store.checkpoint(ws, { sessionId: 's1', ...ROOMY });
    const result = await store.restore(cut.tree, ws, { known: [cut.tree, later.tree] });
    expect(result.changed).toEqual([
      { path: 'gone.txt', change: 'added' },
      { path: 'src/a.ts', change: 'modified' },
      { path: 'src/b.ts', change: 'deleted' },
    ]);
    expect(result.untracked).toEqual(['notes.md']);
    expect(readFileSync(join(ws, 'src', 'a.ts'), 'utf8')).toBe('one\n');
    expect(readFileSync(join(ws, 'gone.txt'), 'utf8')).toBe('deleted later\n');
    expect(existsSync(join(ws, 'src', 'b.ts'))).toBe(false);
    expect(readFileSync(join(ws, 'notes.md'), 'utf8')).toBe('the user’s own, never captured\n');
    expect(readFileSync(join(ws, 'debug.log'), 'utf8')).toBe('ignored\n');
    expect((await store.diff(cut.tree, { cwd: ws })).changes).toEqual([{ path: 'notes.md', change: 'added' }]);

    // The checkpoint before the restore undoes it (it knows notes.md now).
    await store.restore(undo.tree, ws, { known: [cut.tree, later.tree, undo.tree] });
    expect(readFileSync(join(ws, 'src', 'a.ts'), 'utf8')).toBe('two\n');
    expect(readFileSync(join(ws, 'src', 'b.ts'), 'utf8')).toBe('written by the session\n');
    expect(existsSync(join(ws, 'gone.txt'))).toBe(false);
    expect((await store.diff(undo.tree, { cwd: ws })).changes).toEqual([]);
  });
});
