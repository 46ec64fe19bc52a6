import { spawnSync } from 'node:child_process';
import { link, mkdir, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { demoTools } from 'dsh-agent';
import { toToolSpec } from '../to-tool-spec.js';
import { listFilesTool } from './list-files-tool.js';
import { makeDirTool } from './make-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';
import { agentErrorCode, toolContext } from '../__fixtures__/agent-fixtures.js';

let root: TempDir;
let cwd: string;
let outside: string;

beforeEach(async () => {
  root = await makeTempDir();
  cwd = join(root.path, 'work');
  outside = join(root.path, 'outside');
  await mkdir(join(cwd, 'src'), { recursive: true });
  await mkdir(outside);
  await writeFile(join(cwd, 'b.txt'), 'bee\n');
  await writeFile(join(cwd, 'a.txt'), 'ay\nsecond\n');
  await writeFile(join(outside, 'secret.txt'), 'secret');
});
afterEach(async () => {
  await root.remove();
});

describe('demo tools', () => {
  it('declare their effects', () => {
    expect(demoTools().map((tool) => [tool.name, tool.effect])).toEqual([
      ['read_file', 'read-only'],
      ['list_files', 'read-only'],
      ['write_file', 'side-effect'],
      ['make_dir', 'idempotent'],
    ]);
  });

  it('list_files lists sorted entries, directories with a slash', async () => {
    expect(await listFilesTool.run({}, toolContext(cwd))).toBe('a.txt\nb.txt\nsrc/');
    expect(await listFilesTool.run({ path: 'src' }, toolContext(cwd))).toBe('src is empty.');
  });

  it('read_file reads a file in the cwd', async () => {
    expect(await readFileTool.run({ path: 'a.txt' }, toolContext(cwd))).toBe('ay\nsecond\n');
    expect(await agentErrorCode(Promise.resolve(readFileTool.run({ path: 'missing.txt' }, toolContext(cwd))))).toBe('FILE_NOT_FOUND');
    expect(await agentErrorCode(Promise.resolve(readFileTool.run({ path: 'src' }, toolContext(cwd))))).toBe('WRONG_FILE_KIND');
  });

  it('write_file creates parents and reports create versus replace', async () => {
    expect(await writeFileTool.run({ path: 'new/dir/x.txt', content: 'héllo' }, toolContext(cwd))).toBe('Created new/dir/x.txt (6 bytes).');
    expect(await readFile(join(cwd, 'new/dir/x.txt'), 'utf8')).toBe('héllo');
    expect(await writeFileTool.run({ path: 'a.txt', content: '' }, toolContext(cwd))).toBe('Replaced a.txt (0 bytes).');
  });

  it('make_dir creates a directory with its parents, and running it again succeeds and changes nothing', async () => {
    expect(await makeDirTool.run({ path: 'docs/api/v1' }, toolContext(cwd))).toBe('Created docs/api/v1/.');
    expect((await stat(join(cwd, 'docs/api/v1'))).isDirectory()).toBe(true);
    await writeFile(join(cwd, 'docs/api/v1/keep.txt'), 'kept');
    expect(await makeDirTool.run({ path: 'docs/api/v1' }, toolContext(cwd))).toBe('docs/api/v1/ already exists.');
    expect(await makeDirTool.run({ path: './docs/api/v1/' }, toolContext(cwd))).toBe('docs/api/v1/ already exists.');
    expect(await readdir(join(cwd, 'docs/api/v1'))).toEqual(['keep.txt']);
    expect(await makeDirTool.run({ path: 'src' }, toolContext(cwd))).toBe('src/ already exists.');
  });

  it('make_dir refuses a path that is a file or runs through one, with WRONG_FILE_KIND', async () => {
    expect(await agentErrorCode(Promise.resolve(makeDirTool.run({ path: 'a.txt' }, toolContext(cwd))))).toBe('WRONG_FILE_KIND');
    expect(await agentErrorCode(Promise.resolve(makeDirTool.run({ path: 'a.txt/sub' }, toolContext(cwd))))).toBe('WRONG_FILE_KIND');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('ay\nsecond\n');
    expect(makeDirTool.input.safeParse({ path: '' }).success).toBe(false);
  });

  it('refuse paths that leave the cwd, lexically or through links', async () => {
    await symlink(outside, join(cwd, 'escape'));
    await symlink(join(outside, 'nothing-yet.txt'), join(cwd, 'dangling'));
    for (const path of ['../outside/secret.txt', join(outside, 'secret.txt'), 'escape/secret.txt', 'src/../../outside/secret.txt']) {
      expect(await agentErrorCode(Promise.resolve(readFileTool.run({ path }, toolContext(cwd))))).toBe('PATH_OUTSIDE_CWD');
    }
    expect(await agentErrorCode(Promise.resolve(listFilesTool.run({ path: '..' }, toolContext(cwd))))).toBe('PATH_OUTSIDE_CWD');
    expect(await agentErrorCode(Promise.resolve(writeFileTool.run({ path: 'escape/new.txt', content: 'x' }, toolContext(cwd))))).toBe(
      'PATH_OUTSIDE_CWD',
    );
    expect(await agentErrorCode(Promise.resolve(writeFileTool.run({ path: 'dangling', content: 'x' }, toolContext(cwd))))).toBe(
      'PATH_OUTSIDE_CWD',
    );
    for (const path of ['..', '../made', join(outside, 'made'), 'escape/made', 'dangling', 'src/../../made']) {
      expect(await agentErrorCode(Promise.resolve(makeDirTool.run({ path }, toolContext(cwd))))).toBe('PATH_OUTSIDE_CWD');
    }
    expect((await readdir(root.path)).sort()).toEqual(['outside', 'work']);
    expect(await readdir(outside)).toEqual(['secret.txt']);
    expect(await agentErrorCode(readFile(join(outside, 'nothing-yet.txt'), 'utf8'))).toBe('not an AgentError');
  });

  it('refuse to read or write a file with another hard link (it may be any file on the disk), with HARD_LINKED_FILE', async () => {
    await link(join(outside, 'secret.txt'), join(cwd, 'linked.txt'));
    expect(await agentErrorCode(Promise.resolve(readFileTool.run({ path: 'linked.txt' }, toolContext(cwd))))).toBe('HARD_LINKED_FILE');
    expect(await agentErrorCode(Promise.resolve(writeFileTool.run({ path: 'linked.txt', content: 'overwritten' }, toolContext(cwd))))).toBe(
      'HARD_LINKED_FILE',
    );
    expect(await readFile(join(outside, 'secret.txt'), 'utf8')).toBe('secret');
  });

  it('follow a symbolic link that stays inside the cwd, for reading, writing, listing and making directories', async () => {
    await symlink(join(cwd, 'src'), join(cwd, 'source'));
    await symlink('a.txt', join(cwd, 'alias.txt'));
    expect(await readFileTool.run({ path: 'alias.txt' }, toolContext(cwd))).toBe('ay\nsecond\n');
    expect(await writeFileTool.run({ path: 'alias.txt', content: 'new' }, toolContext(cwd))).toBe('Replaced alias.txt (3 bytes).');
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('new');
    expect(await makeDirTool.run({ path: 'source/deeper' }, toolContext(cwd))).toBe('Created source/deeper/.');
    expect(await listFilesTool.run({ path: 'source' }, toolContext(cwd))).toBe('deeper/');
  });

  it('refuse a special file (a FIFO) with WRONG_FILE_KIND instead of hanging on it', async () => {
    const made = spawnSync('mkfifo', [join(cwd, 'pipe')]);
    expect(made.status).toBe(0);
    expect(await agentErrorCode(Promise.resolve(readFileTool.run({ path: 'pipe' }, toolContext(cwd))))).toBe('WRONG_FILE_KIND');
    expect(await agentErrorCode(Promise.resolve(writeFileTool.run({ path: 'pipe', content: 'x' }, toolContext(cwd))))).toBe(
      'WRONG_FILE_KIND',
    );
  });

  it('expose JSON Schemas of their arguments', () => {
    expect(toToolSpec(writeFileTool)).toEqual({
      name: 'write_file',
      description: writeFileTool.description,
      parameters: {
        type: 'object',
        properties: {
          path: { type: 'string', minLength: 1, description: 'File path relative to the working directory' },
          content: { type: 'string', description: 'The complete new content of the file' },
        },
        required: ['path', 'content'],
        additionalProperties: false,
      },
    });
  });
});
