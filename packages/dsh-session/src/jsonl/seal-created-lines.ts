/**
 * @module `sealCreatedLines`: a session created or imported whole (one big create) is sealed as it is
 * written — its event lines published as segments of at most `SEGMENT_MAX_BYTES` (each durable before
 * anything names it) and its file the manifest naming them — so a fork of it names segments and copies
 * nothing (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). A crash before the manifest is
 * published leaves segments no manifest names (collected) and no session.
 */
import { encodeHeader, type SessionHeader } from 'dsh-codec';
import { EMPTY, type CreatePlan } from './jsonl-create-plan.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { LineEnds } from './line-ends.js';
import { SEAL_AT_BYTES } from './seal-held-lines.js';
import { publishSegment } from './segments/publish-segment.js';
import type { SegmentRef } from './segments/segment-store.js';
import type { SegmentsLease } from './segments/segments-lease.js';

/** The most bytes of lines one segment of a create holds (a longer single line is a segment of its own). */
export const SEGMENT_MAX_BYTES = 8 * 1024 * 1024;
import type { JsonlState } from './jsonl-state.js';

/** Whether a planned create writes its whole log in one buffer whose event lines reach `SEAL_AT_BYTES`: then it is sealed. */
export function sealsWhenCreated(plan: CreatePlan): boolean {
  if (plan.inherited !== undefined || plan.rest.length > 0) return false;
  const headerEnd = plan.head.indexOf(NEWLINE) + 1;
  return headerEnd > 0 && plan.head.length - headerEnd >= SEAL_AT_BYTES && plan.head[plan.head.length - 1] === NEWLINE;
}

/**
 * The plan of a whole log (`sealsWhenCreated`) as a manifest: its event lines published as segments
 * under the folder's `lease` (the caller holds it until the manifest is durable), the file holding
 * only `header` naming them. Storage failures are thrown; nothing names the segments then.
 */
export async function sealCreatedLines(
  state: JsonlState,
  header: SessionHeader,
  plan: CreatePlan,
  lease: SegmentsLease,
): Promise<CreatePlan> {
  const lines = plan.head.subarray(plan.head.indexOf(NEWLINE) + 1);
  const segments: SegmentRef[] = [];
  for (let start = 0; start < lines.length;) {
    const end = pieceEnd(lines, start);
    segments.push(await publishSegment(state.segments, lease, lines.subarray(start, end)));
    start = end;
  }
  // No lines of its own yet: line 0 stands for the header, as in every inherited part.
  const ends = LineEnds.after(0);
  ends.scan(EMPTY, 0);
  return {
    head: Buffer.from(encodeHeader({ ...header, segments }), 'utf8'),
    inherited: { bytes: EMPTY, ends, segments },
    rest: EMPTY,
  };
}

/**
 * Where the segment starting at `start` ends: after the last line that ends within `SEGMENT_MAX_BYTES`
 * (a single longer line is a segment of its own). Bounded segments keep a fork's read bounded: it reads
 * only the segment holding its cut.
 */
function pieceEnd(lines: Buffer, start: number): number {
  if (lines.length - start <= SEGMENT_MAX_BYTES) return lines.length;
  const last = lines.lastIndexOf(NEWLINE, start + SEGMENT_MAX_BYTES - 1);
  return last >= start ? last + 1 : lines.indexOf(NEWLINE, start) + 1;
}
