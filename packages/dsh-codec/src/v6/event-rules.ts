/**
 * The V6 event rules: the V6 shape, then V6's relationships (V4's on V6's closer view, and notes
 * between turns only). `shared/event-validator.ts` runs them for `createEventChecker`, `validate(6)`
 * and the decoder.
 */
import type { EventRules } from '../shared/event-validator.js';
import type { V3Event } from '../v3/types.js';
import { checkV6EventShape, v6EventShapeIsValid } from './check-event-shape.js';
import { WorkspaceRelationships } from './workspace-relationships.js';

/** What V6 checks of each event, in order. */
export const V6_EVENT_RULES: EventRules<V3Event> = {
  shapeIsValid: v6EventShapeIsValid,
  checkShape: checkV6EventShape,
  relationships: () => new WorkspaceRelationships(),
};
