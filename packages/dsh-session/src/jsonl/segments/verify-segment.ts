/**
 * @module `verifySegment`: whether segment `digest` holds exactly the bytes its name promises. Checked
 * by hashing the file once per store; then trusted by name while the file's inode, size and times stay
 * (any write to it moves its change time, and it is hashed again).
 */
import { createHash } from 'node:crypto';
import { open, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { errorCode } from '../durable-files.js';
import { segmentFile } from './segment-paths.js';
import type { SegmentStore, VerifiedSegment } from './segment-store.js';

/** What a segment file was found to be: its bytes match its name, it is absent, or its bytes differ. */
export type SegmentCheck = 'verified' | 'missing' | 'mismatch';

/** The piece a segment is hashed in: memory stays bounded whatever the segment's size. */
const HASH_CHUNK = 4 * 1024 * 1024;

/** The identity of a file as `fstat` saw it. */
export function identityOf(stats: Stats): VerifiedSegment {
  return { ino: stats.ino, size: stats.size, ctimeMs: stats.ctimeMs, mtimeMs: stats.mtimeMs };
}

/** Whether `stats` is still the file this store verified as `digest`. */
export function stillVerified(store: SegmentStore, digest: string, stats: Stats): boolean {
  const known = store.verified.get(digest);
  return (
    known !== undefined &&
    known.ino === stats.ino &&
    known.size === stats.size &&
    known.ctimeMs === stats.ctimeMs &&
    known.mtimeMs === stats.mtimeMs
  );
}

/** The SHA-256 (lowercase hex) of an open file's first `size` bytes, read in bounded pieces. */
export async function hashOpenFile(handle: FileHandle, size: number): Promise<string> {
  const hash = createHash('sha256');
  const buffer = Buffer.allocUnsafe(Math.max(1, Math.min(size, HASH_CHUNK)));
  for (let position = 0; position < size;) {
    const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - position), position);
    if (bytesRead === 0) break;
    hash.update(buffer.subarray(0, bytesRead));
    position += bytesRead;
  }
  return hash.digest('hex');
}

/** Checks segment `digest` against its name (hashing it unless this store verified it and it is unchanged since). */
export async function verifySegment(store: SegmentStore, digest: string): Promise<SegmentCheck> {
  let handle: FileHandle;
  try {
    handle = await open(segmentFile(store.dir, digest), 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'missing';
    throw error;
  }
  try {
    const before = await handle.stat();
    if (stillVerified(store, digest, before)) return 'verified';
    store.verified.delete(digest);
    if ((await hashOpenFile(handle, before.size)) !== digest) return 'mismatch';
    const after = await handle.stat();
    // Changed while it was hashed: not trusted by name (the next check hashes it again).
    if (after.ctimeMs === before.ctimeMs && after.size === before.size) store.verified.set(digest, identityOf(after));
    return 'verified';
  } finally {
    await handle.close();
  }
}
