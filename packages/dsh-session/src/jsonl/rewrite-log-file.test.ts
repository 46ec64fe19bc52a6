import { readdirSync, writeFileSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore, rewriteLogFile } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

describe('rewriteLogFile backups', () => {
  let dir: TempDir;
  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    await dir.remove();
  });

  it('keeps the original as FILE.bak and moves an earlier FILE.bak to FILE.bak-<stamp> instead of overwriting it', async () => {
    const file = join(dir.path, 'notes.jsonl');
    await writeFile(file, 'first\r');
    const once = await rewriteLogFile(file, () => 'second\n');
    expect(once).toEqual({ written: true, backup: `${file}.bak` });
    const twice = await rewriteLogFile(file, () => 'third\n');
    expect(twice.olderBackup).toMatch(/notes\.jsonl\.bak-[0-9]{8}T[0-9]{9}Z$/);
    expect(await readFile(file, 'utf8')).toBe('third\n');
    expect(await readFile(`${file}.bak`, 'utf8')).toBe('second\n');
    expect(await readFile(twice.olderBackup as string, 'utf8')).toBe('first\r');
    // A store opening the directory lists neither backup as a session and removes neither.
    const store = await openSessionStore({ dir: dir.path });
    expect(await store.list()).toHaveLength(1);
    await store.close();
    expect((await readdir(dir.path)).filter((name) => name.startsWith('notes.jsonl.')).length).toBe(2);
  });

  it('replaces nothing when its lease was taken over before the rename (fenced like the store): SESSION_BUSY, the log byte-identical', async () => {
    const file = join(dir.path, 'held.jsonl');
    await writeFile(file, 'original\n');
    const folder = join(dir.path, '.leases', 'held');
    const error = await rewriteLogFile(file, () => 'rewritten\n', {
      onStep: (step) => {
        if (step !== 'backup-kept') return;
        // Another writer publishes the next lease generation (it judged this one dead).
        const newest = Math.max(
          ...readdirSync(folder)
            .filter((name) => /^[0-9]+$/.test(name))
            .map(Number),
        );
        writeFileSync(join(folder, String(newest + 1)), JSON.stringify({ pid: 1, host: 'elsewhere', since: 1, token: 't' }));
      },
    }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'SESSION_BUSY' });
    expect(await readFile(file, 'utf8')).toBe('original\n');
  });

  it('writes nothing, and keeps no backup, when the transform leaves the text as it is', async () => {
    const file = join(dir.path, 'same.jsonl');
    await writeFile(file, 'unchanged\n');
    expect(await rewriteLogFile(file, (text) => text)).toEqual({ written: false });
    expect((await readdir(dir.path)).filter((name) => name.startsWith('same.jsonl.'))).toEqual([]);
  });
});
