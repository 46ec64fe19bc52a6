/**
 * @module `JsonlState`: what the JSONL backend's modules share (directory, clock, write function, held writers).
 */
import type { WriteChunk } from './durable-files.js';
import type { StoredRange } from './jsonl-create-plan.js';
import type { SegmentStore } from './segments/segment-store.js';
import type { FastWriter } from '../fast-backend.js';

/** What the JSONL backend's modules share: its directory, clock, write function and held writers. */
export type JsonlState = {
  readonly dir: string;
  readonly now: () => number;
  readonly write: WriteChunk;
  /** Writers of the sessions this backend holds (released on close). */
  readonly held: Set<FastWriter>;
  /** For each session held here: where its first `count` durable current-format event lines lie in its file. */
  readonly storedRanges: Map<string, (count: number) => StoredRange | undefined>;
  /** The sealed segments of the directory (`.segments/`), which manifests name. */
  readonly segments: SegmentStore;
  /** One reusable copy buffer: already-touched memory copies far faster than a fresh allocation. */
  spareCopyBuffer: Buffer | undefined;
};
