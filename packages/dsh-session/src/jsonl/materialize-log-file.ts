/**
 * @module `materializeLogFile`: the one self-contained log a JSONL log file stands for, for readers
 * outside a store (`dsh validate`, `dsh migrate`). A file whose header names sealed segments (a V7
 * manifest of a JSONL store, docs/decisions/2026-12-07-jsonl-forks-by-reference.md) is read with the
 * segments of its folder's `.segments/` — each checked against its digest, `CORRUPT` naming the one
 * that is missing or differs — as the header without `segments`, the segments' bytes, then the file's
 * own lines. Any other file's bytes are returned as they are.
 */
import { dirname, resolve } from 'node:path';
import { manifestOf, materialize } from './jsonl-manifest.js';
import { createSegmentStore } from './segments/segment-store.js';

/**
 * The bytes of `file`'s log, self-contained: a manifest's segments (read from `.segments/` beside
 * `file`) in place of its `segments` field; other bytes unchanged. `maxBytes` bounds the log it
 * becomes: a manifest naming more is refused (`onTooLarge` builds the caller's error) before a segment is read.
 */
export async function materializeLogFile(
  file: string,
  bytes: Buffer,
  options: { maxBytes?: number; onTooLarge?: (size: number) => Error } = {},
): Promise<Buffer> {
  const manifest = manifestOf(bytes);
  if (manifest === undefined) return bytes;
  const size = bytes.length - manifest.headerEnd + manifest.bytes;
  if (options.maxBytes !== undefined && size > options.maxBytes) {
    throw (
      options.onTooLarge?.(size) ??
      new RangeError(`${file}: expected a log of at most ${String(options.maxBytes)} bytes, its segments hold ${String(size)}`)
    );
  }
  return await materialize(createSegmentStore({ dir: dirname(resolve(file)) }), bytes, manifest);
}
