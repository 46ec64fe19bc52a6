/**
 * The V2 validator, frozen: V1's rules plus fork lineage (header fields and the inherited marker
 * at seq `inheritedEventCount`) and session events that may stand anywhere.
 */
import type { Issue } from '../shared/issue.js';
import { validateLegacyEvents } from '../v0/validate-events.js';
import { v1RelationshipView } from '../v1/relationship-view.js';
import { checkHeaderShape } from '../v1/validate-v1.js';
import { ForkMarkerCheck, checkForkLineage, type ForkLineage } from './fork-header-check.js';
import { v2DataSchemas, v2HeaderSchema } from './schemas.js';

/** Every issue of a V2 log (header, lineage, shapes and relationships); `[]` when valid. `parsed`: fresh from `JSON.parse`. */
export function validateV2(artifact: { header?: unknown; events: readonly unknown[] }, parsed = false): Issue[] {
  const header = checkHeaderShape(artifact.header, v2HeaderSchema, 2);
  const lineage = header.length === 0 ? (artifact.header as ForkLineage) : undefined;
  if (lineage !== undefined) header.push(...checkForkLineage(lineage));
  const marker = lineage !== undefined && header.length === 0 ? new ForkMarkerCheck(lineage) : undefined;
  const events = validateLegacyEvents(
    artifact.events,
    { version: 2, schemas: v2DataSchemas, view: v1RelationshipView },
    marker === undefined ? undefined : (index, type, data, shapeValid) => marker.event(index, type, data, shapeValid),
    parsed,
  );
  return [...header, ...events, ...(marker?.finish(artifact.events.length) ?? [])];
}
