/**
 * @module tools/demo-tools
 * `demoTools`: the built-in file tools confined to the session's cwd, one per effect class or more.
 */
import type { Tool } from '../define-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { makeDirTool } from './make-dir-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';

/**
 * The built-in demo tools, confined to the session's cwd, one or more per effect class: `read_file`,
 * `list_files` (read-only), `write_file` (side-effect), `make_dir` (idempotent).
 */
export function demoTools(): Tool[] {
  return [readFileTool, listFilesTool, writeFileTool, makeDirTool] as Tool[];
}
