/**
 * @module tools/list-files-tool
 * `listFilesTool` (`list_files`, read-only): a directory's entries inside the session's cwd.
 */
import { readdir } from 'node:fs/promises';
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { isGitName } from '../refuse-git-path.js';
import { checkDirectoryStillInside, targetInCwd, walkToDirectory } from '../open-in-cwd.js';

const MAX_ENTRIES = 500;

/**
 * `list_files` (read-only): the entries of a directory inside the session's cwd, sorted by name,
 * directories suffixed with `/`, a `.git` entry left out. At most 500 entries; paths that leave the cwd
 * or enter `.git` are refused, also when a directory on the way is swapped for a symbolic link while it runs.
 */
export const listFilesTool = defineTool({
  name: 'list_files',
  description: 'List the files and directories in a directory of the working directory (default "."). ' + 'Directories end with "/".',
  input: z.strictObject({
    path: z.string().optional().describe('Directory relative to the working directory; defaults to "."'),
  }),
  effect: 'read-only',
  async run({ path = '.' }, { cwd }) {
    const target = await targetInCwd(cwd, path);
    const shown = target.shown;
    // The directory is opened from the cwd, never by its path again: what is listed is what was checked.
    const { directory } = await walkToDirectory(target, target.names.length, false);
    let entries;
    try {
      entries = await readdir(directory.path, { withFileTypes: true });
      await checkDirectoryStillInside(target, directory);
    } finally {
      await directory.close();
    }
    // git's own folder is never shown: the tools refuse every path into it (PATH_REFUSED).
    const names = entries
      .filter((entry) => !isGitName(entry.name))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    if (names.length === 0) return `${shown} is empty.`;
    const listed = names.slice(0, MAX_ENTRIES).join('\n');
    return names.length > MAX_ENTRIES ? `${listed}\n… and ${names.length - MAX_ENTRIES} more entries` : listed;
  },
});
