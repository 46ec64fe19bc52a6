/**
 * @module `sealCreatedLines`: a session created or imported whole (one big create) is sealed as it is
 * written — its event lines published as one segment (durable before anything names it) and its file
 * the manifest naming it — so a fork of it names the segment and copies nothing
 * (docs/decisions/2026-12-07-jsonl-forks-by-reference.md). A crash between the two leaves a segment no
 * manifest names (collected) and no session.
 */
import { encodeHeader, type SessionHeader } from 'dsh-codec';
import { EMPTY, type CreatePlan } from './jsonl-create-plan.js';
import { NEWLINE } from './jsonl-log-bytes.js';
import { LineEnds } from './line-ends.js';
import { SEAL_AT_BYTES } from './seal-held-lines.js';
import { publishSegment } from './segments/publish-segment.js';
import type { SegmentsLease } from './segments/segments-lease.js';
import type { JsonlState } from './jsonl-state.js';

/** Whether a planned create writes its whole log in one buffer whose event lines reach `SEAL_AT_BYTES`: then it is sealed. */
export function sealsWhenCreated(plan: CreatePlan): boolean {
  if (plan.inherited !== undefined || plan.rest.length > 0) return false;
  const headerEnd = plan.head.indexOf(NEWLINE) + 1;
  return headerEnd > 0 && plan.head.length - headerEnd >= SEAL_AT_BYTES && plan.head[plan.head.length - 1] === NEWLINE;
}

/**
 * The plan of a whole log (`sealsWhenCreated`) as a manifest: its event lines published as a segment
 * under the folder's `lease` (the caller holds it until the manifest is durable), the file holding
 * only `header` naming that segment. Storage failures are thrown; nothing names the segment then.
 */
export async function sealCreatedLines(
  state: JsonlState,
  header: SessionHeader,
  plan: CreatePlan,
  lease: SegmentsLease,
): Promise<CreatePlan> {
  const lines = plan.head.subarray(plan.head.indexOf(NEWLINE) + 1);
  const segment = await publishSegment(state.segments, lease, lines);
  // No lines of its own yet: line 0 stands for the header, as in every inherited part.
  const ends = LineEnds.after(0);
  ends.scan(EMPTY, 0);
  return {
    head: Buffer.from(encodeHeader({ ...header, segments: [segment] }), 'utf8'),
    inherited: { bytes: EMPTY, ends, segments: [segment] },
    rest: EMPTY,
  };
}
