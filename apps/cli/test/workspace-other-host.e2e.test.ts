/**
 * SPEC §23 on PostgreSQL, through the real bin: two hosts (two data folders, one database) share a
 * session but not its checkpoints. On the host whose workspace store lacks the checkpoint, a
 * `--worktree` fork, `dsh restore` and `dsh diff` are refused `WORKSPACE_UNAVAILABLE` naming the
 * store that holds the files, and make nothing; a plain fork still works.
 */
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { makeTempDir, postgresTestUrl, runDsh, uniqueSchemaName } from '@dsh/test-utils';
import { useCliTestDirs } from './cli-test-dirs.js';
import { git } from './run-git.js';

const url = postgresTestUrl();
const dirs = useCliTestDirs('dsh-other-host', { work: true });

describe.skipIf(url === undefined)('a checkpoint whose files are on another host', () => {
  const schema = uniqueSchemaName('otherhost');
  const database = new URL(url ?? 'postgres://unset');
  database.searchParams.set('schema', schema);
  afterAll(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await client.end();
  });

  it('is refused WORKSPACE_UNAVAILABLE naming the store that has it, for --worktree, restore and diff', { timeout: 240_000 }, async () => {
    git(dirs.work.path, 'init', '-q');
    git(dirs.work.path, 'add', '.');
    git(dirs.work.path, 'commit', '-qm', 'start');
    const script = join(dirs.data.path, 'script.json');
    await writeFile(
      script,
      JSON.stringify([{ toolCalls: [{ name: 'write_file', arguments: { path: 'plan.md', content: 'first\n' } }] }, { text: 'Written.' }]),
    );
    const db = ['--database-url', database.toString()];
    const first = await runDsh([
      '-p',
      'write',
      '--output-format',
      'json',
      '--cwd',
      dirs.work.path,
      '--model',
      `scripted:${script}`,
      '--data',
      dirs.data.path,
      ...db,
    ]);
    expect(first.code, first.stderr).toBe(0);
    const id = (JSON.parse(first.stdout) as { session_id: string }).session_id;
    const shown = await runDsh(['show', id, '--json', ...db]);
    const events = (JSON.parse(shown.stdout) as { events: { seq: number; type: string; data: Record<string, unknown> }[] }).events;
    const checkpoint = events.findLast((event) => event.type === 'workspace/checkpoint');
    const storeA = join(dirs.data.path, '.workspaces.git');
    expect(checkpoint?.data).toMatchObject({ storeDir: storeA, host: expect.any(String) });
    const cut = checkpoint?.seq ?? -1;

    const other = await makeTempDir('dsh-other-host-b-');
    try {
      const onB = ['--data', other.path, ...db];
      for (const args of [
        ['fork', id, '--at', String(cut), '--worktree', '--name', 'on-b'],
        ['restore', id, '--at', String(cut)],
        ['diff', id, '--at', String(cut)],
      ]) {
        const refused = await runDsh([...args, ...onB]);
        expect(refused.code, refused.stderr).toBe(1);
        expect(refused.stderr).toContain('WORKSPACE_UNAVAILABLE');
        expect(refused.stderr).toContain(storeA);
      }
      // Nothing was made on B, and A's files are as the session left them.
      expect(existsSync(join(other.path, 'worktrees', 'on-b'))).toBe(false);
      expect(await readFile(join(dirs.work.path, 'plan.md'), 'utf8')).toBe('first\n');
      expect(git(dirs.work.path, 'branch', '--list', 'dsh/on-b').trim()).toBe('');
      // A plain fork needs no files: it works on B.
      const plain = await runDsh(['fork', id, '--json', ...onB]);
      expect(plain.code, plain.stderr).toBe(0);
      // On A, where the files are, the same --worktree fork works.
      const onA = await runDsh([
        'fork',
        id,
        '--at',
        String(cut),
        '--worktree',
        '--name',
        'on-a',
        '--json',
        '--data',
        dirs.data.path,
        ...db,
      ]);
      expect(onA.code, onA.stderr).toBe(0);
    } finally {
      await other.remove();
    }
  });
});
