/**
 * The V7 shape of one event: V4's envelope, then the V7 payload schema of its core type (V6's, with
 * `session/config`'s optional `checkpoints`); an unknown type is admitted only with `ignorable: true`.
 */
import { eventShape } from '../shared/event-shape.js';
import type { Issue } from '../shared/issue.js';
import type { CoreEventType } from '../types.js';
import { checkV4Envelope, v4EnvelopeIsValid } from '../v4/check-envelope.js';
import { isCoreEventType } from '../v6/check-event-shape.js';
import { isValidCorePayload as isValidV6CorePayload } from '../v6/is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

/** V6's fast path, which knows no `checkpoints`: a `session/config` naming it is left to the zod schema. */
function isValidCorePayload(type: CoreEventType, data: unknown): boolean {
  if (type === 'session/config' && typeof data === 'object' && data !== null && 'checkpoints' in data) return false;
  return isValidV6CorePayload(type, data);
}

const shape = eventShape({
  envelopeIsValid: v4EnvelopeIsValid,
  checkEnvelope: checkV4Envelope,
  isCoreType: isCoreEventType,
  isValidCorePayload,
  schemas: coreEventDataSchemas,
});

/** Every shape issue of `event` as the event at `index` of a V7 log (no relationships). */
export const checkV7EventShape: (event: unknown, index: number, parsed?: boolean) => Issue[] = shape.check;

/** True only when `checkV7EventShape` certainly returns no issue; false means "ask `checkV7EventShape`". */
export const v7EventShapeIsValid: (event: unknown, index: number, parsed?: boolean) => boolean = shape.isValid;
