/**
 * @module Where the JSONL backend keeps sealed segments: `<dir>/.segments/<sha256>`, their temp files
 * `.segments/.<sha256>.<pid>.<random>.tmp`, and the name of the one lease of the folder.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { SessionError } from '../../session-error.js';

/** The folder of the segments' indexes (`segment-index.ts`): a cache beside `.segments`, rebuilt from a segment when missing. */
export const SEGMENT_INDEXES = '.segment-index';

/** The folder of the sealed segments inside a JSONL directory. */
export const SEGMENTS = '.segments';

/**
 * The name of the segment folder's lease under `<dir>/.leases/`: it starts with a dot, so no session
 * id (`[A-Za-z0-9_-]`) can take it.
 */
export const SEGMENTS_LEASE = '.segments';

/** A segment's name: the lowercase hex SHA-256 of its bytes. */
export const SEGMENT_DIGEST = /^[0-9a-f]{64}$/;

/** Matches a segment's (or an index's) temp file's name; group 1 is the digest it was written for. */
export const SEGMENT_TEMP_NAME = /^\.([0-9a-f]{64})\.[0-9]+\.[0-9a-f-]+\.tmp$/;

/** The segment folder of JSONL directory `dir`. */
export function segmentsDir(dir: string): string {
  return join(dir, SEGMENTS);
}

/** The file of segment `digest`; a name that is not a digest is refused, so none reaches outside the folder. */
export function segmentFile(dir: string, digest: string): string {
  if (!SEGMENT_DIGEST.test(digest)) {
    throw new SessionError(
      'CORRUPT',
      `Expected a segment digest (64 lowercase hex digits), received ${JSON.stringify(digest.slice(0, 80))}.`,
    );
  }
  return join(dir, SEGMENTS, digest);
}

/** A fresh temp-file name for writing segment `digest`. */
export function segmentTempName(digest: string): string {
  return `.${digest}.${String(process.pid)}.${randomUUID()}.tmp`;
}

/** The index file of segment `digest` (a digest is checked as `segmentFile` checks it). */
export function segmentIndexFile(dir: string, digest: string): string {
  segmentFile(dir, digest);
  return join(dir, SEGMENT_INDEXES, digest);
}
