/**
 * @module tools/read-file-tool
 * `readFileTool` (`read_file`, read-only): a UTF-8 text file inside the session's cwd.
 */
import { z } from 'zod';
import { defineTool } from '../define-tool.js';
import { openFileInCwd, targetInCwd } from '../open-in-cwd.js';

const MAX_BYTES = 64 * 1024;

/**
 * `read_file` (read-only): a UTF-8 text file inside the session's cwd. Files over 64 KiB are cut
 * with a note saying so; paths that leave the cwd (also through a swap while it runs), special files and
 * files with other hard links are refused.
 */
export const readFileTool = defineTool({
  name: 'read_file',
  description: 'Read a UTF-8 text file of the working directory.',
  input: z.strictObject({
    path: z.string().min(1).describe('File path relative to the working directory'),
  }),
  effect: 'read-only',
  async run({ path }, { cwd }) {
    // Opened from the cwd and checked on the handle (kind, one hard link, inside the cwd) before a byte is read.
    const { handle } = await openFileInCwd(await targetInCwd(cwd, path), 'read');
    try {
      const { size } = await handle.stat();
      const buffer = Buffer.alloc(Math.min(size, MAX_BYTES));
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
      const text = buffer.subarray(0, bytesRead).toString('utf8');
      return size > MAX_BYTES ? `${text}\n… (cut: showing ${MAX_BYTES} of ${size} bytes)` : text;
    } finally {
      await handle.close();
    }
  },
});
