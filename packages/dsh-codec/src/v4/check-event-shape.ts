/**
 * The V4 shape of one event: the envelope (kept from V3) plus the zod payload schema of its
 * core type; an unknown type is admitted only with `ignorable: true` (`shared/event-shape.ts`).
 */
import { eventShape } from '../shared/event-shape.js';
import type { Issue } from '../shared/issue.js';
import type { V4CoreEventType as CoreEventType } from './types.js';
import { checkV4Envelope, v4EnvelopeIsValid } from './check-envelope.js';
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

const CORE_TYPES: ReadonlySet<string> = new Set(Object.keys(coreEventDataSchemas));

/** Whether `type` is a V4 core event type. */
export function isCoreEventType(type: string): type is CoreEventType {
  return CORE_TYPES.has(type);
}

const shape = eventShape({
  envelopeIsValid: v4EnvelopeIsValid,
  checkEnvelope: checkV4Envelope,
  isCoreType: isCoreEventType,
  isValidCorePayload,
  schemas: coreEventDataSchemas,
});

/**
 * True only when `checkV4EventShape` certainly returns no issue, computed without allocating;
 * false means "ask `checkV4EventShape`" (which may still find the event sound, e.g. through zod).
 */
export const v4EventShapeIsValid: (event: unknown, index: number, parsed?: boolean) => boolean = shape.isValid;

/**
 * Every shape issue of `event` as the event at `index` of a V4 log (no relationships).
 * `parsed`: the event comes straight from `JSON.parse` (see `checkV4Envelope`).
 */
export const checkV4EventShape: (event: unknown, index: number, parsed?: boolean) => Issue[] = shape.check;
