/**
 * The V3 validator, frozen: V2's lineage plus queued input, config, `surfaceOp`, ignorable
 * events, tool effects and errors, and crash-recovery closers. It knows nothing of forks'
 * closers: a `forked` reason or a forked synthetic result is invalid here.
 */
import { eventIssue, type Issue } from '../shared/issue.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { checkHeaderShape } from '../v1/validate-v1.js';
import { ForkMarkerCheck, checkForkLineage, type ForkLineage } from '../v2/fork-header-check.js';
import { checkV3Envelope } from './check-envelope.js';
import { V3RelationshipChecker } from './relationship-checker.js';
import { v3DataSchemas, v3HeaderSchema } from './schemas.js';
import type { V3Event } from './types.js';

/** Shape issues of one event at `index` of a V3 log (envelope and payload). */
export function checkV3EventShape(event: unknown, index: number): Issue[] {
  const envelope = checkV3Envelope(event, index);
  if (envelope.length > 0) return envelope;
  const { type, data, ignorable } = event as V3Event;
  if (!Object.hasOwn(v3DataSchemas, type)) {
    return ignorable === true
      ? []
      : [eventIssue(index, ['type'], `event at seq ${String(index)}: unknown event type ${JSON.stringify(type)} without ignorable: true`)];
  }
  const result = v3DataSchemas[type as keyof typeof v3DataSchemas].safeParse(data);
  if (result.success) return [];
  return fromZodIssues(result.error.issues, data, ['data'], `${type} at seq ${String(index)}`, (path, message) =>
    eventIssue(index, path, message),
  );
}

/** Every issue of a V3 log (header, lineage, shapes and relationships); `[]` when valid. */
export function validateV3(artifact: { header?: unknown; events: readonly unknown[] }): Issue[] {
  const issues = checkHeaderShape(artifact.header, v3HeaderSchema, 3);
  const lineage = issues.length === 0 ? (artifact.header as ForkLineage) : undefined;
  if (lineage !== undefined) issues.push(...checkForkLineage(lineage));
  const marker = lineage !== undefined && issues.length === 0 ? new ForkMarkerCheck(lineage) : undefined;
  const relationships = new V3RelationshipChecker();
  artifact.events.forEach((event, index) => {
    const shape = checkV3EventShape(event, index);
    issues.push(...shape);
    if (shape.length === 0) {
      issues.push(...relationships.check(event as V3Event));
      relationships.apply(event as V3Event);
    }
    if (marker !== undefined) {
      const { type, data } = (shape.length === 0 ? event : { type: '', data: undefined }) as V3Event;
      issues.push(...marker.event(index, type, data, shape.length === 0));
    }
  });
  if (marker !== undefined) issues.push(...marker.finish(artifact.events.length));
  return issues;
}
