import { mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { makeTempDir } from '@dsh/test-utils';
import { DEMO_APP_DIR } from './start-demo.js';
import { seedDataDir } from './seed-data-dir.js';

const RECORDINGS = join(DEMO_APP_DIR, 'recordings');

test('a new data directory gets every recording and the workspace they talk about', async () => {
  await using dir = await makeTempDir();
  const data = join(dir.path, 'data');
  const result = await seedDataDir(data, RECORDINGS);
  const recordings = (await readdir(join(RECORDINGS, 'sessions'))).filter((name) => name.endsWith('.jsonl')).sort();
  expect(result.seeded).toEqual(recordings.map((name) => name.replace(/\.jsonl$/, '')));
  expect((await readdir(result.sessionsDir)).sort()).toEqual(recordings);
  expect(await readFile(join(result.workspaceDir, 'src', 'greet.js'), 'utf8')).toContain('export function greet(name)');
});

test('an existing data directory is left as it is: deleted sessions stay deleted, edits stay', async () => {
  await using dir = await makeTempDir();
  const data = join(dir.path, 'data');
  const first = await seedDataDir(data, RECORDINGS);
  await rm(join(first.sessionsDir, 'baseline.jsonl'));
  await writeFile(join(first.workspaceDir, 'src', 'greet.js'), 'changed');
  const again = await seedDataDir(data, RECORDINGS);
  expect(again.seeded).toEqual([]);
  expect(await readdir(again.sessionsDir)).not.toContain('baseline.jsonl');
  expect(await readFile(join(again.workspaceDir, 'src', 'greet.js'), 'utf8')).toBe('changed');
});

test('a workspace removed by hand is restored without touching the sessions', async () => {
  await using dir = await makeTempDir();
  const data = join(dir.path, 'data');
  await mkdir(join(data, 'sessions'), { recursive: true });
  const result = await seedDataDir(data, RECORDINGS);
  expect(result.seeded).toEqual([]);
  expect(await readdir(result.sessionsDir)).toEqual([]);
  expect(await readdir(result.workspaceDir)).toContain('README.md');
});
