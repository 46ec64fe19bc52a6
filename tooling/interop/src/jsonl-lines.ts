/** A JSONL file's lines as objects, for tests that look inside the files the tools wrote. */
import { readFile } from 'node:fs/promises';

/** Every non-empty line of `path`, parsed. */
export async function jsonlLines(path: string): Promise<Record<string, unknown>[]> {
  const text = await readFile(path, 'utf8');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}
