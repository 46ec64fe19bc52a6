/**
 * @module models/__fixtures__/read-file-stub
 * `readFileStub`: a `read_file` tool with a fixed answer, for adapter tests that need a tool the
 * model may call without touching the disk.
 */
import { z } from 'zod';
import { defineTool, type Tool } from 'dsh-agent';

/** `read_file` answering `héllo` for `a.txt` and a miss for any other path. */
export const readFileStub: Tool = defineTool({
  name: 'read_file',
  description: 'Read a file.',
  input: z.strictObject({ path: z.string() }),
  effect: 'read-only',
  run: (args) => (args.path === 'a.txt' ? 'héllo' : `no such file ${args.path}`),
});
