/**
 * The V7 event rules: the V7 shape, then V6's relationships (V7 adds no relationship).
 * `shared/event-validator.ts` runs them for `createEventChecker`, `validate(7)` and the decoder.
 */
import type { EventRules } from '../shared/event-validator.js';
import type { V3Event } from '../v3/types.js';
import { WorkspaceRelationships } from '../v6/workspace-relationships.js';
import { checkV7EventShape, v7EventShapeIsValid } from './check-event-shape.js';

/** What V7 checks of each event, in order. */
export const V7_EVENT_RULES: EventRules<V3Event> = {
  shapeIsValid: v7EventShapeIsValid,
  checkShape: checkV7EventShape,
  relationships: () => new WorkspaceRelationships(),
};
