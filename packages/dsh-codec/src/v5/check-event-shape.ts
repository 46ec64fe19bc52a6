/**
 * The V5 shape of one event: V4's envelope, then the V5 payload schema of its core type (V4's
 * plus reasoning blocks in assistant messages); an unknown type is admitted only with
 * `ignorable: true` (`shared/event-shape.ts`).
 */
import { eventShape } from '../shared/event-shape.js';
import type { Issue } from '../shared/issue.js';
import { checkV4Envelope, v4EnvelopeIsValid } from '../v4/check-envelope.js';
import { isCoreEventType } from '../v4/check-event-shape.js';
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

const shape = eventShape({
  envelopeIsValid: v4EnvelopeIsValid,
  checkEnvelope: checkV4Envelope,
  isCoreType: isCoreEventType,
  isValidCorePayload,
  schemas: coreEventDataSchemas,
});

/**
 * Every shape issue of `event` as the event at `index` of a V5 log (no relationships).
 * `parsed`: the event comes straight from `JSON.parse` (see `checkV4Envelope`).
 */
export const checkV5EventShape: (event: unknown, index: number, parsed?: boolean) => Issue[] = shape.check;

/**
 * True only when `checkV5EventShape` certainly returns no issue, computed without allocating;
 * false means "ask `checkV5EventShape`" (which may still find the event sound, e.g. through zod).
 */
export const v5EventShapeIsValid: (event: unknown, index: number, parsed?: boolean) => boolean = shape.isValid;
