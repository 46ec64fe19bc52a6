import type { Tool } from '../define-tool.js';
import { listFilesTool } from './list-files-tool.js';
import { readFileTool } from './read-file-tool.js';
import { writeFileTool } from './write-file-tool.js';

/** The built-in demo tools, confined to the session's cwd: `read_file`, `list_files`, `write_file`. */
export function demoTools(): Tool[] {
  return [readFileTool, listFilesTool, writeFileTool] as Tool[];
}
