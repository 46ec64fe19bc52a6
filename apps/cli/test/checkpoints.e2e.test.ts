/**
 * SPEC §23 through the real bin: `dsh -p` checkpoints the session's cwd into `DATA/.workspaces.git`
 * (after turn/start and after each call that may change files), and `--no-checkpoints` takes none —
 * stored in the session's config (V7 `session/config.checkpoints`), so a resume without it takes none
 * either, and `dsh fork --no-checkpoints` stores it in the child.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openWorkspaceStore } from 'dsh-workspace';
import { useCliTestDirs } from './cli-test-dirs.js';
import { runDsh } from '@dsh/test-utils';

const dirs = useCliTestDirs('dsh-cli-checkpoints', { work: true });

type Line = { type: string; ignorable?: true; data?: { tree?: string; after?: string; callId?: string } };

async function writeScript(): Promise<string> {
  const file = join(dirs.data.path, 'script.json');
  await writeFile(
    file,
    JSON.stringify([
      {
        toolCalls: [
          { name: 'write_file', arguments: { path: 'plan.md', content: 'step one\n' } },
          { name: 'read_file', arguments: { path: 'plan.md' } },
        ],
      },
      { text: 'Written.' },
    ]),
  );
  return `scripted:${file}`;
}

async function run(extra: string[]): Promise<Line[]> {
  const data = join(dirs.data.path, 'd');
  const model = await writeScript();
  const result = await runDsh([
    '-p',
    'write the plan',
    '--cwd',
    dirs.work.path,
    '--model',
    model,
    '--output-format',
    'events',
    '--data',
    data,
    ...extra,
  ]);
  expect(result.code, result.stderr).toBe(0);
  return result.stdout
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Line);
}

describe('dsh -p and workspace checkpoints (SPEC §23)', () => {
  it(
    'checkpoints the cwd at turn start and after write_file (not after read_file) into DATA/.workspaces.git',
    { timeout: 120_000 },
    async () => {
      const lines = await run([]);
      const types = lines.map((line) => line.type);
      expect(types.slice(types.indexOf('turn/start'), types.indexOf('turn/start') + 2)).toEqual(['turn/start', 'workspace/checkpoint']);
      const checkpoints = lines.filter((line) => line.type === 'workspace/checkpoint');
      expect(checkpoints.map((line) => [line.ignorable, line.data?.after])).toEqual([
        [true, 'turn-start'],
        [true, 'call'],
      ]);
      const afterWrite = types.indexOf('workspace/checkpoint', types.indexOf('tool/result'));
      expect(afterWrite).toBe(types.indexOf('tool/result') + 1);
      const store = openWorkspaceStore({ dir: join(dirs.data.path, 'd', '.workspaces.git') });
      const files = async (tree: string | undefined) => (await store.listFiles(tree ?? '')).map((file) => file.path);
      expect(await files(checkpoints[0]?.data?.tree)).toEqual(['notes.md']);
      expect(await files(checkpoints[1]?.data?.tree)).toEqual(['notes.md', 'plan.md']);
    },
  );

  it(
    '--no-checkpoints is stored: a resume without it takes none; dsh fork --no-checkpoints stores it in the child, its parent still checkpoints',
    { timeout: 240_000 },
    async () => {
      const data = join(dirs.data.path, 'd');
      const off = '0a1b2c3d-0000-4000-8000-000000000001';
      const on = '0a1b2c3d-0000-4000-8000-000000000002';
      await run(['--no-checkpoints', '--session-id', off]);
      await run(['--session-id', on]);
      const resume = async (id: string): Promise<string[]> => {
        const result = await runDsh([
          '-p',
          'again',
          '--resume',
          id,
          '--model',
          await writeScript(),
          '--output-format',
          'events',
          '--data',
          data,
        ]);
        expect(result.code, result.stderr).toBe(0);
        return result.stdout
          .trimEnd()
          .split('\n')
          .map((line) => (JSON.parse(line) as Line).type);
      };
      const resumedOff = await resume(off);
      expect(resumedOff).toContain('tool/result');
      expect(resumedOff).not.toContain('workspace/checkpoint');

      const forked = await runDsh(['fork', on, '--no-checkpoints', '--data', data]);
      expect(forked.code, forked.stderr).toBe(0);
      const child = forked.stdout.trim();
      const shown = await runDsh(['show', child, '--json', '--data', data]);
      expect(shown.stdout).toMatch(/"checkpoints": ?false/);
      const resumedChild = await resume(child);
      expect(resumedChild).toContain('tool/result');
      expect(resumedChild).not.toContain('workspace/checkpoint');
      expect(await resume(on)).toContain('workspace/checkpoint');
    },
  );

  it('--no-checkpoints takes none and creates no store', { timeout: 120_000 }, async () => {
    const lines = await run(['--no-checkpoints']);
    expect(lines.map((line) => line.type)).toContain('tool/result');
    expect(lines.map((line) => line.type)).not.toContain('workspace/checkpoint');
    expect(existsSync(join(dirs.data.path, 'd', '.workspaces.git'))).toBe(false);
  });
});
