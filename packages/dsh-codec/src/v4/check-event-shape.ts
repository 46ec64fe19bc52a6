/**
 * The V4 shape of one event: the envelope (kept from V3) plus the zod payload schema of its
 * core type; an unknown type is admitted only with `ignorable: true`.
 */
import { eventIssue, type Issue } from '../v0/issue.js';
import { fromZodIssues } from '../v0/zod-issues.js';
import type { CoreEventType } from '../types.js';
import { checkV4Envelope, v4EnvelopeIsValid } from './check-envelope.js';
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

const CORE_TYPES: ReadonlySet<string> = new Set(Object.keys(coreEventDataSchemas));

/** Whether `type` is a V4 core event type. */
export function isCoreEventType(type: string): type is CoreEventType {
  return CORE_TYPES.has(type);
}

/**
 * True only when `checkV4EventShape` certainly returns no issue, computed without allocating;
 * false means "ask `checkV4EventShape`" (which may still find the event sound, e.g. through zod).
 */
export function v4EventShapeIsValid(event: unknown, index: number, parsed = false): boolean {
  if (!v4EnvelopeIsValid(event, index, parsed)) return false;
  const { type, data, ignorable } = event as { type: string; data: unknown; ignorable?: true };
  return isCoreEventType(type) ? isValidCorePayload(type, data) : ignorable === true;
}

/**
 * Every shape issue of `event` as the event at `index` of a V4 log (no relationships).
 * `parsed`: the event comes straight from `JSON.parse` (see `checkV4Envelope`).
 */
export function checkV4EventShape(event: unknown, index: number, parsed = false): Issue[] {
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
