/**
 * @module tools/make-dir-tool
 * `makeDirTool` (`make_dir`, idempotent): a directory and its parents inside the session's cwd.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { checkDirectoryStillInside, targetInCwd, walkToDirectory } from '../open-in-cwd.js';

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
    const target = await targetInCwd(cwd, path);
    // Each directory is made inside its opened parent (mkdirat), so a swap cannot redirect it.
    const { directory, created } = await walkToDirectory(target, target.names.length, true);
    try {
      await checkDirectoryStillInside(target, directory);
    } finally {
      await directory.close();
    }
    return created ? `Created ${target.shown}/.` : `${target.shown}/ already exists.`;
  },
});
