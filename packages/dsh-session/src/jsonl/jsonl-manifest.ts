/**
 * @module A JSONL log as a V7 manifest (docs/decisions/2026-12-07-jsonl-forks-by-reference.md): a header
 * line naming sealed segments, then the session's own lines. `manifestOf` finds the segments a file's
 * header names; `materialize` builds the one self-contained log the codec and every reader see (the
 * header without `segments`, the segments' bytes, the own lines); `segmentsUpTo` cuts a manifest's
 * segments at an event count, for a fork child that refers to them.
 */
import type { SealedSegment } from 'dsh-codec';
import { NEWLINE } from './jsonl-log-bytes.js';
import { readSegment } from './segments/read-segment.js';
import { SEGMENT_DIGEST } from './segments/segment-paths.js';
import type { SegmentStore } from './segments/segment-store.js';

/** What a manifest's header names: its segments, how many event lines they hold, and where the header line ends. */
export type Manifest = { segments: SealedSegment[]; lines: number; bytes: number; headerEnd: number; header: Record<string, unknown> };

/**
 * The manifest of a file's bytes when its header line names segments in the V7 shape; undefined for a
 * self-contained log — and for a header whose `segments` is malformed, which the codec then refuses.
 */
export function manifestOf(bytes: Buffer): Manifest | undefined {
  const end = bytes.indexOf(NEWLINE);
  if (end === -1) return undefined;
  // Cheap test first: only a manifest's header line holds this key.
  if (bytes.indexOf('"segments":', 0, 'utf8') === -1 || bytes.indexOf('"segments":', 0, 'utf8') > end) return undefined;
  let header: unknown;
  try {
    header = JSON.parse(bytes.toString('utf8', 0, end));
  } catch {
    return undefined;
  }
  if (typeof header !== 'object' || header === null || Array.isArray(header)) return undefined;
  const { segments } = header as { segments?: unknown };
  if (!Array.isArray(segments) || segments.length === 0) return undefined;
  let lines = 0;
  let total = 0;
  for (const segment of segments as unknown[]) {
    if (!isSegment(segment)) return undefined;
    lines += segment.lines;
    total += segment.bytes;
  }
  return { segments: segments as SealedSegment[], lines, bytes: total, headerEnd: end + 1, header: header as Record<string, unknown> };
}

function isSegment(value: unknown): value is SealedSegment {
  if (typeof value !== 'object' || value === null) return false;
  const { digest, bytes, lines } = value as Record<string, unknown>;
  return (
    typeof digest === 'string' &&
    SEGMENT_DIGEST.test(digest) &&
    Number.isSafeInteger(bytes) &&
    Number.isSafeInteger(lines) &&
    (lines as number) >= 1 &&
    (lines as number) <= (bytes as number)
  );
}

/** The header line of the self-contained log a manifest stands for: its header without `segments`. */
export function headerLineWithoutSegments(manifest: Manifest): Buffer {
  const { segments: _segments, ...rest } = manifest.header;
  return Buffer.from(`${JSON.stringify(rest)}\n`, 'utf8');
}

/**
 * The self-contained log a manifest's file stands for: the header without `segments`, each segment's
 * named bytes (verified by digest: `CORRUPT` when one is missing or differs), then the file's own lines.
 */
export async function materialize(store: SegmentStore, bytes: Buffer, manifest: Manifest): Promise<Buffer> {
  const parts: Buffer[] = [headerLineWithoutSegments(manifest)];
  for (const segment of manifest.segments) parts.push(await readSegment(store, segment));
  parts.push(bytes.subarray(manifest.headerEnd));
  return Buffer.concat(parts);
}

/**
 * The segments holding a log's first `count` events, the last one cut after its event line `count`
 * (`lines` are the log's first event lines, as bytes: the segments' bytes come first in them).
 * Undefined when `count` reaches past the segments (the caller then seals or copies the rest).
 */
export function segmentsUpTo(manifest: Manifest, count: number, lines: Buffer): SealedSegment[] | undefined {
  if (count > manifest.lines) return undefined;
  const refs: SealedSegment[] = [];
  let remaining = count;
  let offset = 0;
  for (const segment of manifest.segments) {
    if (remaining === 0) break;
    if (remaining >= segment.lines) {
      refs.push({ ...segment });
      remaining -= segment.lines;
      offset += segment.bytes;
      continue;
    }
    let end = offset;
    for (let line = 0; line < remaining; line += 1) end = lines.indexOf(NEWLINE, end) + 1;
    refs.push({ digest: segment.digest, bytes: end - offset, lines: remaining });
    remaining = 0;
  }
  return refs;
}

/**
 * The segments holding a manifest's first `count` events (`count` at most its segments' lines): every
 * segment wholly before the cut as it is, the one holding the cut cut after its line — only that one is
 * read (verified by digest), to find where the line ends.
 */
export async function segmentsAt(store: SegmentStore, manifest: Manifest, count: number): Promise<SealedSegment[]> {
  const refs: SealedSegment[] = [];
  let first = 0;
  for (const segment of manifest.segments) {
    if (first >= count) break;
    if (first + segment.lines <= count) refs.push({ ...segment });
    else {
      const bytes = await readSegment(store, segment);
      const lines = count - first;
      let end = 0;
      for (let line = 0; line < lines; line += 1) end = bytes.indexOf(NEWLINE, end) + 1;
      refs.push({ digest: segment.digest, bytes: end, lines });
    }
    first += segment.lines;
  }
  return refs;
}
