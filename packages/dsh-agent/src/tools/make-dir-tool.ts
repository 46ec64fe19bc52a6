import { mkdir, stat } from 'node:fs/promises';
import { z } from 'zod';
import { AgentError } from '../agent-error.js';
import { defineTool } from '../define-tool.js';
import { displayPath, resolveInCwd } from '../resolve-in-cwd.js';

/**
 * `make_dir` (idempotent): creates a directory inside the session's cwd with any missing parents, and
 * succeeds when it already exists, so running it again changes nothing. Paths that leave the cwd are refused.
 */
export const makeDirTool = defineTool({
  name: 'make_dir',
  description:
    'Create a directory of the working directory, with any missing parent directories. ' +
    'Succeeds without change if the directory already exists.',
  input: z.strictObject({
    path: z.string().min(1).describe('Directory path relative to the working directory'),
  }),
  effect: 'idempotent',
  async run({ path }, { cwd }) {
    const absolute = await resolveInCwd(cwd, path);
    const shown = displayPath(await resolveInCwd(cwd, '.'), absolute);
    let created: string | undefined;
    try {
      created = await mkdir(absolute, { recursive: true });
    } catch (cause) {
      const code = (cause as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ENOTDIR') throw cause;
      const isFile = await stat(absolute).then(
        (found) => !found.isDirectory(),
        () => false,
      );
      throw new AgentError(
        'WRONG_FILE_KIND',
        isFile
          ? `expected ${shown} to be a directory, received a file`
          : `expected every parent of ${shown} to be a directory, received a file in the path`,
        { cause },
      );
    }
    return created === undefined ? `${shown}/ already exists.` : `Created ${shown}/.`;
  },
});
