import { mkdir, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { resolveInCwd } from 'dsh-agent';
import { listFilesTool } from './list-files-tool.js';
import { makeDirTool } from './make-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';
import { agentErrorCode, toolContext } from '../__fixtures__/agent-fixtures.js';

let root: TempDir;
let cwd: string;

beforeEach(async () => {
  root = await makeTempDir('dsh-git-paths-');
  cwd = join(root.path, 'work');
  // A checkout's own folder, as git leaves it, and a nested one below a subfolder.
  await mkdir(join(cwd, '.git', 'hooks'), { recursive: true });
  await writeFile(join(cwd, '.git', 'config'), '[core]\n\tbare = false\n');
  await mkdir(join(cwd, 'sub', '.GIT'), { recursive: true });
  await writeFile(join(cwd, 'a.txt'), 'ay\n');
  await symlink('.git', join(cwd, 'meta'));
  await symlink('.git/config', join(cwd, 'config-alias'));
});
afterEach(async () => {
  await root.remove();
});

function code(run: () => unknown): Promise<string | undefined> {
  return agentErrorCode(Promise.resolve().then(run));
}

describe("the file tools refuse git's own files (PATH_REFUSED)", () => {
  const named = [
    '.git',
    '.git/config',
    './.git/hooks/pre-commit',
    'sub/.GIT/config',
    '.Git',
    '.git./config',
    '.git /x',
    'GIT~1/config',
    'x/../.git/config',
    '.git/../a.txt',
  ];

  it('refuses every path with a .git part, in any case, for reading, writing, listing and making directories', async () => {
    for (const path of named) {
      expect([path, await code(() => readFileTool.run({ path }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => writeFileTool.run({ path, content: 'x' }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => listFilesTool.run({ path }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => makeDirTool.run({ path }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => resolveInCwd(cwd, path))]).toEqual([path, 'PATH_REFUSED']);
    }
    // Nothing was written or created: the repository's folder is as it was.
    expect(await readFile(join(cwd, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect((await readdir(join(cwd, '.git'))).sort()).toEqual(['config', 'hooks']);
    expect(await readdir(join(cwd, '.git', 'hooks'))).toEqual([]);
    expect(await readdir(join(cwd, 'sub', '.GIT'))).toEqual([]);
    expect((await readdir(cwd)).sort()).toEqual(['.git', 'a.txt', 'config-alias', 'meta', 'sub']);
  });

  it('refuses .git reached through a symbolic link, and says so in the message', async () => {
    for (const path of ['meta/config', 'meta/hooks/post-checkout', 'config-alias']) {
      expect([path, await code(() => readFileTool.run({ path }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => writeFileTool.run({ path, content: 'x' }, toolContext(cwd)))]).toEqual([path, 'PATH_REFUSED']);
      expect([path, await code(() => resolveInCwd(cwd, path))]).toEqual([path, 'PATH_REFUSED']);
    }
    expect(await code(() => listFilesTool.run({ path: 'meta' }, toolContext(cwd)))).toBe('PATH_REFUSED');
    expect(await code(() => makeDirTool.run({ path: 'meta/hooks/more' }, toolContext(cwd)))).toBe('PATH_REFUSED');
    await expect(Promise.resolve(writeFileTool.run({ path: 'meta/config', content: 'x' }, toolContext(cwd)))).rejects.toThrow(
      /expected a path outside every \.git folder, received "meta\/config", which leads into "\.git"/,
    );
    expect(await readFile(join(cwd, '.git', 'config'), 'utf8')).toBe('[core]\n\tbare = false\n');
    expect(await readdir(join(cwd, '.git', 'hooks'))).toEqual([]);
  });

  it('leaves .git out of a listing, and still reaches names that only look alike', async () => {
    expect(await listFilesTool.run({}, toolContext(cwd))).toBe('a.txt\nconfig-alias\nmeta\nsub/');
    expect(await listFilesTool.run({ path: 'sub' }, toolContext(cwd))).toBe('sub is empty.');
    for (const path of ['.gitignore', '.github/workflows/ci.yml', 'git/x', 'my.git/x', '.git-notes']) {
      await writeFileTool.run({ path, content: 'kept' }, toolContext(cwd));
      expect(await readFileTool.run({ path }, toolContext(cwd))).toBe('kept');
    }
  });
});
