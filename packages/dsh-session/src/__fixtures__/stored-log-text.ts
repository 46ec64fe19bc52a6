/**
 * The text of a session's log in a JSONL directory as every reader sees it: a manifest read with its
 * segments (`jsonl-manifest.ts`), any other log as it is. For tests that decode stored files.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { manifestOf, materialize } from '../jsonl/jsonl-manifest.js';
import { createSegmentStore } from '../jsonl/segments/segment-store.js';

/** The self-contained log text of session `id` stored in `dir`. */
export async function storedLogText(dir: string, id: string): Promise<string> {
  const bytes = await readFile(join(dir, `${id}.jsonl`));
  const manifest = manifestOf(bytes);
  if (manifest === undefined) return bytes.toString('utf8');
  return (await materialize(createSegmentStore({ dir }), bytes, manifest)).toString('utf8');
}
