/**
 * The V5 shape of one event: V4's envelope, then the V5 payload schema of its core type (V4's
 * plus reasoning blocks in assistant messages); an unknown type is admitted only with `ignorable: true`.
 */
import { eventIssue, type Issue } from '../v0/issue.js';
import { fromZodIssues } from '../v0/zod-issues.js';
import { checkV4Envelope, v4EnvelopeIsValid } from '../v4/check-envelope.js';
import { isCoreEventType } from '../v4/check-event-shape.js';
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

/**
 * Every shape issue of `event` as the event at `index` of a V5 log (no relationships).
 * `parsed`: the event comes straight from `JSON.parse` (see `checkV4Envelope`).
 */
export function checkV5EventShape(event: unknown, index: number, parsed = false): Issue[] {
  const issues = checkV4Envelope(event, index, parsed);
  if (issues.length > 0) return issues;
  const { type, data, ignorable } = event as { type: string; data: unknown; ignorable?: true };
  if (!isCoreEventType(type)) {
    if (ignorable === true) return issues;
    return [eventIssue(index, ['type'], `event at seq ${String(index)}: unknown event type ${JSON.stringify(type)} without ignorable: true (a reader refuses unknown events unless they are ignorable)`)];
  }
  if (isValidCorePayload(type, data)) return issues;
  const result = coreEventDataSchemas[type].safeParse(data);
  if (result.success) return issues;
  return fromZodIssues(result.error.issues, data, ['data'], `${type} at seq ${String(index)}`, (path, message) => eventIssue(index, path, message));
}

/**
 * True only when `checkV5EventShape` certainly returns no issue, computed without allocating;
 * false means "ask `checkV5EventShape`" (which may still find the event sound, e.g. through zod).
 */
export function v5EventShapeIsValid(event: unknown, index: number, parsed = false): boolean {
  if (!v4EnvelopeIsValid(event, index, parsed)) return false;
  const { type, data, ignorable } = event as { type: string; data: unknown; ignorable?: true };
  return isCoreEventType(type) ? isValidCorePayload(type, data) : ignorable === true;
}
