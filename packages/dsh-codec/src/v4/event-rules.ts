/**
 * The V4 event rules: the V4 shape, then relationships through the frozen V3 checker on the
 * private interrupted view. `shared/event-validator.ts` runs them for `validate(4)` and the decoder.
 */
import type { EventRules } from '../shared/event-validator.js';
import type { V3Event } from '../v3/types.js';
import { checkV4EventShape, v4EventShapeIsValid } from './check-event-shape.js';
import { ForkViewRelationships } from './fork-view-relationships.js';

/** What V4 checks of each event, in order. */
export const V4_EVENT_RULES: EventRules<V3Event> = {
  shapeIsValid: v4EventShapeIsValid,
  checkShape: checkV4EventShape,
  relationships: () => new ForkViewRelationships(),
};
