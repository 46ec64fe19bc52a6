import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { AgentError, demoTools, listFilesTool, readFileTool, toToolSpec, writeFileTool, type ToolContext } from 'dsh-agent';

let root: TempDir;
let cwd: string;
let outside: string;
const context = (): ToolContext => ({ cwd, signal: new AbortController().signal, sessionId: 's', callId: 'c', turn: 1, step: 1 });

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

async function refusal(promise: Promise<unknown>): Promise<string | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return AgentError.is(error) ? error.code : 'not an AgentError';
  }
}

describe('demo tools', () => {
  it('declare their effects', () => {
    expect(demoTools().map((tool) => [tool.name, tool.effect])).toEqual([
      ['read_file', 'read-only'],
      ['list_files', 'read-only'],
      ['write_file', 'side-effect'],
    ]);
  });

  it('list_files lists sorted entries, directories with a slash', async () => {
    expect(await listFilesTool.run({}, context())).toBe('a.txt\nb.txt\nsrc/');
    expect(await listFilesTool.run({ path: 'src' }, context())).toBe('src is empty.');
  });

  it('read_file reads a file in the cwd', async () => {
    expect(await readFileTool.run({ path: 'a.txt' }, context())).toBe('ay\nsecond\n');
    expect(await refusal(Promise.resolve(readFileTool.run({ path: 'missing.txt' }, context())))).toBe('FILE_NOT_FOUND');
    expect(await refusal(Promise.resolve(readFileTool.run({ path: 'src' }, context())))).toBe('WRONG_FILE_KIND');
  });

  it('write_file creates parents and reports create versus replace', async () => {
    expect(await writeFileTool.run({ path: 'new/dir/x.txt', content: 'héllo' }, context())).toBe('Created new/dir/x.txt (6 bytes).');
    expect(await readFile(join(cwd, 'new/dir/x.txt'), 'utf8')).toBe('héllo');
    expect(await writeFileTool.run({ path: 'a.txt', content: '' }, context())).toBe('Replaced a.txt (0 bytes).');
  });

  it('refuse paths that leave the cwd, lexically or through links', async () => {
    await symlink(outside, join(cwd, 'escape'));
    await symlink(join(outside, 'nothing-yet.txt'), join(cwd, 'dangling'));
    for (const path of ['../outside/secret.txt', join(outside, 'secret.txt'), 'escape/secret.txt', 'src/../../outside/secret.txt']) {
      expect(await refusal(Promise.resolve(readFileTool.run({ path }, context())))).toBe('PATH_OUTSIDE_CWD');
    }
    expect(await refusal(Promise.resolve(listFilesTool.run({ path: '..' }, context())))).toBe('PATH_OUTSIDE_CWD');
    expect(await refusal(Promise.resolve(writeFileTool.run({ path: 'escape/new.txt', content: 'x' }, context())))).toBe(
      'PATH_OUTSIDE_CWD',
    );
    expect(await refusal(Promise.resolve(writeFileTool.run({ path: 'dangling', content: 'x' }, context())))).toBe('PATH_OUTSIDE_CWD');
    expect(await refusal(readFile(join(outside, 'nothing-yet.txt'), 'utf8'))).toBe('not an AgentError');
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
