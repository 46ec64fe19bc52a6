/**
 * The V1 validator, frozen: header line, structured messages, every result answers a `tool/call`.
 */
import type { z } from 'zod';
import { describeValue } from '../shared/describe-value.js';
import { findLossyJson } from '../shared/find-lossy-json.js';
import { formatPath, headerIssue, type Issue } from '../shared/issue.js';
import { validateLegacyEvents } from '../v0/validate-events.js';
import { fromZodIssues } from '../shared/zod-issues.js';
import { v1RelationshipView } from './relationship-view.js';
import { v1DataSchemas, v1HeaderSchema } from './schemas.js';

/** Issues of a header against a zod schema, lossless JSON first. Frozen with V1; V2 and V3 reuse it. */
export function checkHeaderShape(header: unknown, schema: z.ZodType, version: number): Issue[] {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return [
      headerIssue(
        [],
        `header: expected a V${String(version)} header {format: "dsh-session", version: ${String(version)}, ...}, got ${describeValue(header)}`,
      ),
    ];
  }
  const lossy = findLossyJson(header);
  if (lossy !== undefined)
    return [
      headerIssue(
        lossy.path,
        `header${lossy.path.length > 0 ? `, ${formatPath(lossy.path)}` : ''}: must be lossless JSON: ${lossy.reason}`,
      ),
    ];
  const result = schema.safeParse(header);
  if (result.success) return [];
  return fromZodIssues(result.error.issues, header, [], 'header', (path, message) => headerIssue(path, message));
}

/** Every issue of a V1 log (header, shapes and relationships); `[]` when valid. `parsed`: fresh from `JSON.parse`. */
export function validateV1(artifact: { header?: unknown; events: readonly unknown[] }, parsed = false): Issue[] {
  return [
    ...checkHeaderShape(artifact.header, v1HeaderSchema, 1),
    ...validateLegacyEvents(artifact.events, { version: 1, schemas: v1DataSchemas, view: v1RelationshipView }, undefined, parsed),
  ];
}
