/**
 * @module `readSegment`: the bytes a manifest names of a sealed segment (its first `bytes`), checked
 * against the segment's digest once per store (`verify-segment.ts`). A missing segment, one whose bytes
 * differ from its name, or a count that does not end a line is `CORRUPT`: never silently used.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { errorCode, readExactly } from '../durable-files.js';
import { SessionError } from '../../session-error.js';
import { segmentFile } from './segment-paths.js';
import type { SegmentRef, SegmentStore } from './segment-store.js';
import { identityOf, stillVerified } from './verify-segment.js';

const NEWLINE = 0x0a;

/** Reads the first `ref.bytes` bytes of segment `ref.digest`, verified; `CORRUPT` naming the segment when they cannot be trusted. */
export async function readSegment(store: SegmentStore, ref: SegmentRef): Promise<Buffer> {
  const { digest } = ref;
  let handle: FileHandle;
  try {
    handle = await open(segmentFile(store.dir, digest), 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw corruptSegment(store, ref, 'it is missing');
    throw error;
  }
  try {
    const stats = await handle.stat();
    if (!Number.isSafeInteger(ref.bytes) || ref.bytes <= 0 || ref.bytes > stats.size) {
      throw corruptSegment(store, ref, `it holds ${String(stats.size)} bytes`);
    }
    const trusted = stillVerified(store, digest, stats);
    // Verifying needs every byte: read the whole segment once, then keep only the bytes named.
    const bytes = await readExactly(handle, trusted ? ref.bytes : stats.size);
    if (!trusted) {
      store.verified.delete(digest);
      if (createHash('sha256').update(bytes).digest('hex') !== digest)
        throw corruptSegment(store, ref, 'its bytes do not match its digest');
      const after = await handle.stat();
      if (after.ctimeMs === stats.ctimeMs && after.size === stats.size) store.verified.set(digest, identityOf(after));
    }
    if (bytes[ref.bytes - 1] !== NEWLINE) throw corruptSegment(store, ref, `byte ${String(ref.bytes)} does not end a line`);
    return bytes.length === ref.bytes ? bytes : bytes.subarray(0, ref.bytes);
  } finally {
    await handle.close();
  }
}

/** `CORRUPT` for a segment a manifest names, saying what was expected and what was found. */
export function corruptSegment(store: SegmentStore, ref: SegmentRef, found: string): SessionError {
  return new SessionError(
    'CORRUPT',
    `Cannot read segment ${ref.digest} of ${store.dir}: expected its first ${String(ref.bytes)} bytes to be ${String(ref.lines)} sealed lines matching its digest, but ${found}.`,
  );
}
