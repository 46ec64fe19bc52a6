/**
 * The V6 shape of one event: V4's envelope, then the V6 payload schema of its core type (V5's plus
 * `session/note`); an unknown type is admitted only with `ignorable: true` (`shared/event-shape.ts`).
 */
import { eventShape } from '../shared/event-shape.js';
import type { Issue } from '../shared/issue.js';
import type { CoreEventType } from '../types.js';
import { checkV4Envelope, v4EnvelopeIsValid } from '../v4/check-envelope.js';
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

const CORE_TYPES: ReadonlySet<string> = new Set(Object.keys(coreEventDataSchemas));

/** Whether `type` is a core event type of the current format (V6): a reader refuses it unknown only when it is not. */
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
 * Every shape issue of `event` as the event at `index` of a V6 log (no relationships).
 * `parsed`: the event comes straight from `JSON.parse` (see `checkV4Envelope`).
 */
export const checkV6EventShape: (event: unknown, index: number, parsed?: boolean) => Issue[] = shape.check;

/**
 * True only when `checkV6EventShape` certainly returns no issue, computed without allocating;
 * false means "ask `checkV6EventShape`" (which may still find the event sound, e.g. through zod).
 */
export const v6EventShapeIsValid: (event: unknown, index: number, parsed?: boolean) => boolean = shape.isValid;
