import { mkdir, stat, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { z } from 'zod';
import { AgentError } from '../agent-error.js';
import { defineTool } from '../define-tool.js';
import { displayPath, resolveInCwd } from '../resolve-in-cwd.js';

/**
 * `write_file` (side-effect): writes UTF-8 text to a file inside the session's cwd, creating
 * missing parent directories and replacing an existing file. Paths that leave the cwd are refused.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description:
    'Write UTF-8 text to a file of the working directory, creating parent directories. ' +
    'Replaces the file if it exists.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path relative to the working directory'),
    content: z.string().describe('The complete new content of the file'),
  }),
  effect: 'side-effect',
  async run({ path, content }, { cwd }) {
    const absolute = await resolveInCwd(cwd, path);
    const shown = displayPath(await resolveInCwd(cwd, '.'), absolute);
    const existing = await stat(absolute).catch(() => undefined);
    if (existing?.isDirectory() === true) {
      throw new AgentError('WRONG_FILE_KIND', `expected ${shown} to be a file, received a directory`);
    }
    await mkdir(dirname(absolute), { recursive: true });
    await writeFile(absolute, content, 'utf8');
    const bytes = Buffer.byteLength(content, 'utf8');
    return `${existing === undefined ? 'Created' : 'Replaced'} ${shown} (${bytes} bytes).`;
  },
});
