/**
 * @module tools/write-file-tool
 * `writeFileTool` (`write_file`, side-effect): UTF-8 text written to a file inside the session's cwd.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { openFileInCwd, targetInCwd } from '../open-in-cwd.js';

/**
 * `write_file` (side-effect): writes UTF-8 text to a file inside the session's cwd, creating
 * missing parent directories and replacing an existing file. Paths that leave the cwd (also through a
 * swap while it runs), special files and files with other hard links are refused.
 */
export const writeFileTool = defineTool({
  name: 'write_file',
  description: 'Write UTF-8 text to a file of the working directory, creating parent directories. ' + 'Replaces the file if it exists.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path relative to the working directory'),
    content: z.string().describe('The complete new content of the file'),
  }),
  effect: 'side-effect',
  async run({ path, content }, { cwd }) {
    const target = await targetInCwd(cwd, path);
    // Opened (or created) from the cwd and checked on the handle before it is truncated and written.
    const { handle, created } = await openFileInCwd(target, 'write');
    const bytes = Buffer.from(content, 'utf8');
    try {
      await handle.truncate(0);
      // A fresh handle writes from offset 0; writeFile loops over partial writes.
      await handle.writeFile(bytes);
    } finally {
      await handle.close();
    }
    return `${created ? 'Created' : 'Replaced'} ${target.shown} (${bytes.length} bytes).`;
  },
});
