/**
 * @module `publishSegment`: seals a run of complete event lines as `<dir>/.segments/<sha256>`, durable
 * before it returns — written in full to a temp file, fsynced, `link`ed to its name (never overwriting)
 * and the folder fsynced — so a manifest written after it never names bytes a crash could lose. A
 * segment already published under that name is reused (checked against its digest first); one whose
 * bytes were damaged is replaced by the right bytes (its name says what they are). Its index
 * (`segment-index.ts`) is written beside it.
 */
import { createHash } from 'node:crypto';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { publishWithoutOverwrite, syncDirectory, writeFileDurably } from '../durable-files.js';
import { SessionError } from '../../session-error.js';
import { segmentFile, segmentsDir, segmentTempName } from './segment-paths.js';
import { indexSegmentLines, writeSegmentIndexSync } from './segment-index.js';
import type { SegmentRef, SegmentStore } from './segment-store.js';
import type { SegmentsLease } from './segments-lease.js';
import { identityOf, verifySegment } from './verify-segment.js';

const NEWLINE = 0x0a;

/**
 * Publishes `lines` (complete LF-terminated lines) as a segment, under the folder's `lease` (held by
 * the caller until the manifest naming the segment is durable). `WRITE_FAILED` when storage refuses
 * (nothing is left under the segment's name); `SESSION_BUSY` when the lease was taken over.
 */
export async function publishSegment(store: SegmentStore, lease: SegmentsLease, lines: Buffer): Promise<SegmentRef> {
  if (lines.length === 0 || lines[lines.length - 1] !== NEWLINE) {
    throw new SessionError(
      'INVALID_EVENT',
      `Expected a segment of complete lines ending with a line feed, received ${String(lines.length)} bytes ending with ${lines.length === 0 ? 'nothing' : `byte ${String(lines[lines.length - 1])}`}.`,
    );
  }
  const digest = createHash('sha256').update(lines).digest('hex');
  const ref: SegmentRef = { digest, bytes: lines.length, lines: countLines(lines) };
  await lease.assertHeld();
  const found = await verifySegment(store, digest);
  if (found === 'verified') {
    writeSegmentIndexSync(store, indexSegmentLines(digest, lines));
    return ref;
  }
  const folder = segmentsDir(store.dir);
  const path = segmentFile(store.dir, digest);
  const temp = join(folder, segmentTempName(digest));
  try {
    if ((await mkdir(folder, { recursive: true })) !== undefined) await syncDirectory(store.dir);
    await writeFileDurably(temp, lines, store.write);
    if (found === 'mismatch') await rename(temp, path);
    else if (!(await publishWithoutOverwrite(temp, path))) {
      // Published meanwhile by a holder this one took the lease over from: the same name is the same bytes, once checked.
      if ((await verifySegment(store, digest)) !== 'verified') await rename(temp, path);
      else await unlink(temp);
    }
    await syncDirectory(folder);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw new SessionError('WRITE_FAILED', `Could not publish segment ${digest} in ${folder}: ${(error as Error).message}`, {
      cause: error,
    });
  }
  // Just written from bytes whose digest is its name: verified.
  store.verified.set(digest, identityOf(await stat(path)));
  // Its index (a cache, best effort) once the segment is durable: searches by type skip it unread.
  writeSegmentIndexSync(store, indexSegmentLines(digest, lines));
  await lease.assertHeld();
  return ref;
}

/** How many LF bytes `bytes` holds. */
function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(NEWLINE); at !== -1; at = bytes.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}
