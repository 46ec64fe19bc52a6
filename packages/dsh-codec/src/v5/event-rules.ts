/**
 * The V5 event rules: the V5 shape, then V4's relationships (the frozen V3 checker on V4's private
 * interrupted view; reasoning blocks declare nothing). `shared/event-validator.ts` runs them for
 * `createEventChecker`, `validate(5)` and the decoder.
 */
import type { EventRules } from '../shared/event-validator.js';
import type { V3Event } from '../v3/types.js';
import { ForkViewRelationships } from '../v4/fork-view-relationships.js';
import { checkV5EventShape, v5EventShapeIsValid } from './check-event-shape.js';

/** What V5 checks of each event, in order. */
export const V5_EVENT_RULES: EventRules<V3Event> = {
  shapeIsValid: v5EventShapeIsValid,
  checkShape: checkV5EventShape,
  relationships: () => new ForkViewRelationships(),
};
