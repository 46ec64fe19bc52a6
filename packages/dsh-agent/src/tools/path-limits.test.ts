import { mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { AgentError } from 'dsh-agent';
import { PATH_LIMITS } from '../check-path-limits.js';
import { resolveInCwd } from '../resolve-in-cwd.js';
import { makeDirTool } from './make-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';
import { toolContext } from '../__fixtures__/agent-fixtures.js';

let root: TempDir;
let cwd: string;

beforeEach(async () => {
  root = await makeTempDir();
  cwd = join(root.path, 'work');
  await mkdir(cwd);
});
afterEach(async () => {
  await root.remove();
});

async function refusal(run: () => unknown): Promise<AgentError> {
  try {
    await run();
  } catch (error) {
    if (AgentError.is(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

/** Every path under `dir`, depth first (the whole tree, to compare before and after). */
async function tree(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true });
  return entries.sort();
}

const deep = (levels: number) => Array.from({ length: levels }, () => 'd').join('/');

describe('file tool path limits (PATH_TOO_LONG)', () => {
  it('write_file and make_dir refuse a 3000-level path before creating anything', async () => {
    const before = await tree(cwd);
    const write = await refusal(() => writeFileTool.run({ path: `${deep(3000)}/x.txt`, content: 'x' }, toolContext(cwd)));
    const make = await refusal(() => makeDirTool.run({ path: deep(3000) }, toolContext(cwd)));
    for (const error of [write, make]) {
      expect(error.code).toBe('PATH_TOO_LONG');
      // The message names the limit and what came.
      expect(error.message).toMatch(/shorter than 4096 bytes \(PATH_MAX.*received "d\/d\/d.*6\d{3} bytes/);
    }
    expect(await tree(cwd)).toEqual(before);
  });

  it('refuses a path deeper than the depth cap even when it is short, and creates nothing', async () => {
    const error = await refusal(() => makeDirTool.run({ path: deep(PATH_LIMITS.depth + 1) }, toolContext(cwd)));
    expect(error.code).toBe('PATH_TOO_LONG');
    expect(error.message).toContain(`at most ${String(PATH_LIMITS.depth)} directories deep`);
    expect(error.message).toContain(`${String(PATH_LIMITS.depth + 1)} levels`);
    expect(await tree(cwd)).toEqual([]);
  });

  it('make_dir creates a path exactly at the depth cap', async () => {
    expect(await makeDirTool.run({ path: deep(PATH_LIMITS.depth) }, toolContext(cwd))).toMatch(/^Created d\/d/);
  });

  it('refuses a name over NAME_MAX, counted in bytes, and takes one of exactly 255 bytes', async () => {
    const error = await refusal(() => writeFileTool.run({ path: `sub/${'é'.repeat(128)}`, content: 'x' }, toolContext(cwd)));
    expect(error.code).toBe('PATH_TOO_LONG');
    expect(error.message).toContain('at most 255 bytes (NAME_MAX)');
    expect(error.message).toContain('a name of 256 bytes');
    expect(await tree(cwd)).toEqual([]);
    expect(await writeFileTool.run({ path: `sub/${'n'.repeat(255)}`, content: 'x' }, toolContext(cwd))).toMatch(/^Created sub\//);
  });

  it('refuses an argument over PATH_MAX even when it resolves to a short path', async () => {
    const error = await refusal(() => readFileTool.run({ path: `${'a/../'.repeat(1000)}x.txt` }, toolContext(cwd)));
    expect(error.code).toBe('PATH_TOO_LONG');
  });

  it('resolveInCwd checks the same limits for a host’s own tools', async () => {
    expect((await refusal(() => resolveInCwd(cwd, deep(3000)))).code).toBe('PATH_TOO_LONG');
    expect(await resolveInCwd(cwd, 'a/b')).toBe(join(cwd, 'a/b'));
  });
});
