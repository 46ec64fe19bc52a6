/**
 * Removing a worktree dsh never finished recording: a dsh killed while it wrote the record leaves only
 * the record's temporary file, which `removeWorktree` (dsh peers --remove NAME) clears while it says
 * WORKTREE_NOT_FOUND; another name's files stay.
 */
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makeTempDir } from '@dsh/test-utils';
import { describe, expect, it } from 'vitest';
import { removeWorktree } from './remove-worktree.js';

describe('removeWorktree', () => {
  it('clears the temporary file a killed record write left, says WORKTREE_NOT_FOUND, and leaves other names alone', async () => {
    await using dir = await makeTempDir();
    const records = join(dir.path, 'worktrees', '.records');
    mkdirSync(records, { recursive: true });
    writeFileSync(join(records, 'k1.json.d3820ea6b2cb.tmp'), '{"version":1,');
    writeFileSync(join(records, 'k2.json.0123456789ab.tmp'), '{"version":1,');
    writeFileSync(join(records, 'k1.json.notours.tmp'), 'someone else');

    await expect(removeWorktree(dir.path, 'k1', false)).rejects.toMatchObject({ code: 'WORKTREE_NOT_FOUND' });
    expect(readdirSync(records).sort()).toEqual(['k1.json.notours.tmp', 'k2.json.0123456789ab.tmp']);
  });
});
