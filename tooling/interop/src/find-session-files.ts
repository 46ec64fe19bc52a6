/** Finds the session files a tool wrote under its sessions folder (recursively, `*.jsonl`). */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** Every `*.jsonl` file under `dir` (absent folder: none), sorted, subagent folders included. */
export async function findSessionFiles(dir: string): Promise<string[]> {
  const found: string[] = [];
  const walk = async (folder: string): Promise<void> => {
    let entries;
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) await walk(path);
      else if (entry.isFile() && entry.name.endsWith('.jsonl')) found.push(path);
    }
  };
  await walk(dir);
  return found.sort();
}
