/**
 * @module `createSegmentStore`: the sealed, content-addressed segment files of a JSONL directory
 * (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). Each operation is its own module taking
 * this store: `publishSegment`, `readSegment` / `verifySegment`, `collectSegments`, and the folder's
 * lease (`acquireSegmentsLease`).
 */
import { resolve } from 'node:path';
import { writeAll, type WriteChunk } from '../durable-files.js';

/** A run of sealed lines a manifest names: the segment's digest, how many of its first bytes, and how many lines they hold. */
export type SegmentRef = { digest: string; bytes: number; lines: number };

/** What a segment file was when this store last checked it against its digest: a change to the file changes one of these. */
export type VerifiedSegment = { ino: number; size: number; ctimeMs: number; mtimeMs: number };

/** The segment store of one JSONL directory: where it lies, its clock and write function, the segments it verified. */
export type SegmentStore = {
  readonly dir: string;
  readonly now: () => number;
  readonly write: WriteChunk;
  /** Segments of this folder verified by digest in this process (every store of the folder shares it), with the file's identity then: trusted by name while it stays. */
  readonly verified: Map<string, VerifiedSegment>;
};

/** Options of `createSegmentStore`; `writeChunk` lets tests inject write failures. */
export type SegmentStoreOptions = { dir: string; now?: () => number; writeChunk?: WriteChunk };

/** Per folder (resolved path), the segments this process verified: a digest is hashed once per process, not once per store. */
const VERIFIED_IN_PROCESS = new Map<string, Map<string, VerifiedSegment>>();

/** The segment store of JSONL directory `dir` (its `.segments` folder is created by the first publish). */
export function createSegmentStore(options: SegmentStoreOptions): SegmentStore {
  const key = resolve(options.dir);
  let verified = VERIFIED_IN_PROCESS.get(key);
  if (verified === undefined) {
    verified = new Map();
    VERIFIED_IN_PROCESS.set(key, verified);
  }
  return { dir: options.dir, now: options.now ?? Date.now, write: options.writeChunk ?? writeAll, verified };
}
