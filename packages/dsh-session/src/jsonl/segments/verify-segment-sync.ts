/**
 * @module `verifySegmentSync`: a segment a manifest names checked whole against its digest without being
 * kept — hashed in bounded pieces, as `open` of a stamped manifest checks every segment before it hands
 * out the session (each is then read, trusted by name, only when one of its events is read).
 */
import { closeSync, readSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { corruptSegment } from './read-segment.js';
import { openSegmentSync, rememberVerified } from './read-segment-sync.js';
import type { SegmentRef, SegmentStore } from './segment-store.js';
import { stillVerified } from './verify-segment.js';

const NEWLINE = 0x0a;
/** The piece a segment is hashed in: memory stays bounded whatever the segment's size. */
const HASH_CHUNK = 4 * 1024 * 1024;

/**
 * Checks that segment `ref.digest` exists, holds at least `ref.bytes` bytes ending a line there, and
 * matches its digest (hashed unless this process verified it and it is unchanged since); `CORRUPT`
 * naming the segment otherwise. Holds one `HASH_CHUNK` at a time.
 */
export function verifySegmentSync(store: SegmentStore, ref: SegmentRef): void {
  const { digest } = ref;
  const { fd, stats } = openSegmentSync(store, ref);
  try {
    const last = Buffer.alloc(1);
    if (readSync(fd, last, 0, 1, ref.bytes - 1) !== 1 || last[0] !== NEWLINE) {
      throw corruptSegment(store, ref, `byte ${String(ref.bytes)} does not end a line`);
    }
    if (stillVerified(store, digest, stats)) return;
    store.verified.delete(digest);
    const hash = createHash('sha256');
    const chunk = Buffer.allocUnsafe(Math.min(stats.size, HASH_CHUNK));
    for (let offset = 0; offset < stats.size;) {
      const read = readSync(fd, chunk, 0, Math.min(chunk.length, stats.size - offset), offset);
      if (read === 0) throw corruptSegment(store, ref, `it ended after ${String(offset)} bytes`);
      hash.update(chunk.subarray(0, read));
      offset += read;
    }
    if (hash.digest('hex') !== digest) throw corruptSegment(store, ref, 'its bytes do not match its digest');
    rememberVerified(store, digest, fd, stats);
  } finally {
    closeSync(fd);
  }
}
