/**
 * @module `readSegmentSync`: `readSegment` for a reader that reads by position (an observation's events
 * are read synchronously, `segment-window.ts`): the first `ref.bytes` bytes of a sealed segment,
 * hashed against its digest the first time this process reads it, then trusted by name while its inode,
 * size and times stay. A missing segment, bytes that differ from the name or a count that does not end a
 * line are `CORRUPT`, never silently used.
 */
import { closeSync, fstatSync, openSync, readSync, type Stats } from 'node:fs';
import { createHash } from 'node:crypto';
import { errorCode } from '../durable-files.js';
import { corruptSegment } from './read-segment.js';
import { segmentFile } from './segment-paths.js';
import type { SegmentRef, SegmentStore } from './segment-store.js';
import { identityOf, stillVerified } from './verify-segment.js';

const NEWLINE = 0x0a;

/**
 * Reads the first `ref.bytes` bytes of segment `ref.digest`, verified; `CORRUPT` naming the segment when
 * they cannot be trusted. With `into`, the bytes are read into it when it is large enough (the result is
 * a view of it, valid until its next use): a reader that parses them at once and keeps nothing spares a
 * fresh allocation per segment, whose page faults and external-memory GCs cost more than the read.
 */
export function readSegmentSync(store: SegmentStore, ref: SegmentRef, into?: Buffer): Buffer {
  const { digest } = ref;
  const { fd, stats } = openSegmentSync(store, ref);
  try {
    const trusted = stillVerified(store, digest, stats);
    // Verifying needs every byte: the whole segment is read once, then only the bytes named are kept.
    const size = trusted ? ref.bytes : stats.size;
    const bytes = into !== undefined && into.length >= size ? into.subarray(0, size) : Buffer.allocUnsafe(size);
    for (let offset = 0; offset < bytes.length;) {
      const read = readSync(fd, bytes, offset, bytes.length - offset, offset);
      if (read === 0) throw corruptSegment(store, ref, `it ended after ${String(offset)} bytes`);
      offset += read;
    }
    if (!trusted) {
      store.verified.delete(digest);
      if (createHash('sha256').update(bytes).digest('hex') !== digest)
        throw corruptSegment(store, ref, 'its bytes do not match its digest');
      rememberVerified(store, digest, fd, stats);
    }
    if (bytes[ref.bytes - 1] !== NEWLINE) throw corruptSegment(store, ref, `byte ${String(ref.bytes)} does not end a line`);
    return bytes.length === ref.bytes ? bytes : bytes.subarray(0, ref.bytes);
  } finally {
    closeSync(fd);
  }
}

/**
 * Opens segment `ref.digest` for reading by position, with its stats; `CORRUPT` naming the segment when it
 * is missing or holds fewer bytes than `ref.bytes` (or `ref.bytes` is not a positive count). The caller closes `fd`.
 */
export function openSegmentSync(store: SegmentStore, ref: SegmentRef): { fd: number; stats: Stats } {
  let fd: number;
  try {
    fd = openSync(segmentFile(store.dir, ref.digest), 'r');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') throw corruptSegment(store, ref, 'it is missing');
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!Number.isSafeInteger(ref.bytes) || ref.bytes <= 0 || ref.bytes > stats.size) {
      throw corruptSegment(store, ref, `it holds ${String(stats.size)} bytes`);
    }
    return { fd, stats };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Trusts segment `digest` by name from now on if `fd` is unchanged since `stats` (it was just hashed). */
export function rememberVerified(store: SegmentStore, digest: string, fd: number, stats: Stats): void {
  const after = fstatSync(fd);
  if (after.ctimeMs === stats.ctimeMs && after.size === stats.size) store.verified.set(digest, identityOf(after));
}
