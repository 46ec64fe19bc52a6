/**
 * @module `collectSegments`: removes the segments no file of the directory names, and the temp files
 * of publishers that died, under the segment folder's lease (so no manifest in flight is about to name
 * what it removes), and the indexes of the segments removed. A segment any manifest, backup or live
 * writer's temp file names is never removed; the temp files of session-log writers that died (their
 * session's lease free) are removed first (`removeOrphanTemps`), so a segment only such a file named is collected.
 */
import { readdir, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { errorCode, syncDirectory } from '../durable-files.js';
import { removeOrphanTemps } from '../remove-orphan-temps.js';
import { referencedSegments } from './referenced-segments.js';
import { SEGMENT_DIGEST, SEGMENT_INDEXES, SEGMENT_TEMP_NAME, segmentsDir } from './segment-paths.js';
import type { SegmentStore } from './segment-store.js';
import type { SegmentsLease } from './segments-lease.js';

/** What a collection did: the digests it removed, how many segments it kept, how many temp files it removed. */
export type CollectedSegments = { removed: string[]; kept: number; temps: number };

/**
 * Removes every unreferenced segment and every segment temp file; the caller holds `lease` (only its
 * holder publishes, so a temp file is a dead publisher's). `CORRUPT` (nothing removed) when a session
 * log's header cannot be read; `SESSION_BUSY` when the lease was taken over before anything is removed.
 */
export async function collectSegments(store: SegmentStore, lease: SegmentsLease): Promise<CollectedSegments> {
  const folder = segmentsDir(store.dir);
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return { removed: [], kept: 0, temps: 0 };
    throw error;
  }
  // A writer killed between its temp file and the rename left a file that names segments and never will be a log.
  await removeOrphanTemps(store.dir);
  const referenced = await referencedSegments(store.dir);
  await lease.assertHeld();
  const removed: string[] = [];
  let kept = 0;
  let temps = 0;
  for (const name of names) {
    if (SEGMENT_TEMP_NAME.test(name)) {
      if (await unlinkIfPresent(join(folder, name))) temps += 1;
    } else if (SEGMENT_DIGEST.test(name)) {
      if (referenced.has(name)) kept += 1;
      else if (await unlinkIfPresent(join(folder, name))) {
        store.verified.delete(name);
        removed.push(name);
      }
    }
  }
  if (removed.length > 0 || temps > 0) await syncDirectory(folder);
  await collectIndexes(join(store.dir, SEGMENT_INDEXES), referenced);
  return { removed, kept, temps };
}

/** Removes the indexes of segments no file names (and index temp files: an index is a cache, its writer gives up on a lost rename). */
async function collectIndexes(folder: string, referenced: ReadonlySet<string>): Promise<void> {
  let names: string[];
  try {
    names = await readdir(folder);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return;
    throw error;
  }
  for (const name of names) {
    if (SEGMENT_TEMP_NAME.test(name) || (SEGMENT_DIGEST.test(name) && !referenced.has(name))) await unlinkIfPresent(join(folder, name));
  }
}

/** Unlinks `path`; false when it was already gone. */
async function unlinkIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return false;
    throw error;
  }
}
