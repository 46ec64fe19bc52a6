import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { DEMO_APP_DIR } from './start-demo.js';
import { DemoDataDirError, seedDataDir } from './seed-data-dir.js';

const RECORDINGS = join(DEMO_APP_DIR, 'recordings');
const recordings = async () => (await readdir(join(RECORDINGS, 'sessions'))).filter((name) => name.endsWith('.jsonl')).sort();
const logsIn = async (dir: string) => (await readdir(dir)).filter((name) => name.endsWith('.jsonl')).sort();

test('a new data directory is the CLI store itself: every recording at DIR/<id>.jsonl, the workspace at DIR/workspace', async () => {
  await using dir = await makeTempDir();
  const data = join(dir.path, 'data');
  const result = await seedDataDir(data, RECORDINGS);
  expect(result).toMatchObject({ sessionsDir: data, workspaceDir: join(data, 'workspace'), oldLayout: false });
  expect(result.seeded).toEqual((await recordings()).map((name) => name.replace(/\.jsonl$/, '')));
  expect(await logsIn(data)).toEqual(await recordings());
  expect(await readFile(join(result.workspaceDir, 'src', 'greet.js'), 'utf8')).toContain('export function greet(name)');
  // No staging folder is left beside it.
  expect((await readdir(dir.path)).sort()).toEqual(['data']);
});

test('an empty directory made beforehand is seeded too', async () => {
  await using dir = await makeTempDir();
  const result = await seedDataDir(dir.path, RECORDINGS);
  expect(result.seeded.length).toBeGreaterThan(0);
  expect(await logsIn(dir.path)).toEqual(await recordings());
});

test('an existing data directory is left as it is: deleted sessions stay deleted, edits stay', async () => {
  await using dir = await makeTempDir();
  const data = join(dir.path, 'data');
  await seedDataDir(data, RECORDINGS);
  for (const name of await logsIn(data)) await rm(join(data, name));
  await writeFile(join(data, 'workspace', 'src', 'greet.js'), 'changed');
  const again = await seedDataDir(data, RECORDINGS);
  expect(again.seeded).toEqual([]);
  expect(await logsIn(data)).toEqual([]);
  expect(await readFile(join(again.workspaceDir, 'src', 'greet.js'), 'utf8')).toBe('changed');
});

test('a CLI data directory (logs, no workspace) gets a workspace and keeps its sessions untouched', async () => {
  await using dir = await makeTempDir();
  await writeFile(join(dir.path, 'mine.jsonl'), 'not read here');
  const result = await seedDataDir(dir.path, RECORDINGS);
  expect(result).toMatchObject({ sessionsDir: dir.path, seeded: [], oldLayout: false });
  expect(await logsIn(dir.path)).toEqual(['mine.jsonl']);
  expect(await readdir(result.workspaceDir)).toContain('README.md');
});

test("the demo's old layout (DIR/sessions/) is still read where it is and reported as such", async () => {
  await using dir = await makeTempDir();
  await mkdir(join(dir.path, 'sessions'));
  await writeFile(join(dir.path, 'sessions', 'old.jsonl'), 'old');
  const result = await seedDataDir(dir.path, RECORDINGS);
  expect(result).toMatchObject({ sessionsDir: join(dir.path, 'sessions'), seeded: [], oldLayout: true });
  expect(await logsIn(dir.path)).toEqual([]);
});

test('a directory with sessions in both layouts is refused, naming both places', async () => {
  await using dir = await makeTempDir();
  await mkdir(join(dir.path, 'sessions'));
  await writeFile(join(dir.path, 'sessions', 'old.jsonl'), 'old');
  await writeFile(join(dir.path, 'new.jsonl'), 'new');
  const refused = seedDataDir(dir.path, RECORDINGS);
  await expect(refused).rejects.toBeInstanceOf(DemoDataDirError);
  await expect(refused).rejects.toThrow(/two layouts: 1 in the folder itself .* and 1 in .*sessions/);
});
