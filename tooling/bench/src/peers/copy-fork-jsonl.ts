import { open, readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { fsyncPath } from '../harness/fs-baselines.js';

/**
 * A Claude-Code-style fork of a JSONL transcript, written here as a baseline peer: read the parent,
 * copy every line through the one whose `uuid` is `cutUuid`, give each the child's `sessionId`,
 * write the child exclusively and fsync it and its directory. Returns the bytes written.
 */
export async function copyForkJsonl(source: string, target: string, cutUuid: string, sessionId: string): Promise<number> {
  const text = await readFile(source, 'utf8');
  const out: string[] = [];
  let found = false;
  for (let start = 0; start < text.length && !found;) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    if (line === '') continue;
    const entry = JSON.parse(line) as Record<string, unknown>;
    entry.sessionId = sessionId;
    out.push(`${JSON.stringify(entry)}\n`);
    found = entry.uuid === cutUuid;
  }
  if (!found) throw new RangeError(`copyForkJsonl: no line with uuid ${cutUuid} in ${source}`);
  const bytes = Buffer.from(out.join(''), 'utf8');
  const handle = await open(target, 'wx');
  try {
    await handle.write(bytes);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsyncPath(dirname(target));
  return bytes.length;
}
