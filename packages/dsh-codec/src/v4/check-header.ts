/**
 * The V4 header: lossless JSON, the zod shape, and the lineage fields among themselves.
 */
import { describeValue } from '../v0/describe-value.js';
import { findLossyJson } from '../v0/find-lossy-json.js';
import { formatPath, headerIssue, type Issue } from '../v0/issue.js';
import { fromZodIssues } from '../v0/zod-issues.js';
import { checkForkLineage } from '../v2/fork-header-check.js';
import type { V4Header } from './types.js';
import { sessionHeaderSchema } from './schemas.js';

/** Every issue of `header` as a V4 header; `[]` means it is a `SessionHeader`. */
export function checkV4Header(header: unknown): Issue[] {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return [headerIssue([], `header: expected {format: "dsh-session", version: 4, id, createdAt, inheritedEventCount}, got ${describeValue(header)}`)];
  }
  const lossy = findLossyJson(header);
  if (lossy !== undefined) return [headerIssue(lossy.path, `header${lossy.path.length > 0 ? `, ${formatPath(lossy.path)}` : ''}: must be lossless JSON: ${lossy.reason}`)];
  const result = sessionHeaderSchema.safeParse(header);
  if (!result.success) {
    return fromZodIssues(result.error.issues, header, [], 'header', (path, message) => headerIssue(path, message));
  }
  return checkForkLineage(header as V4Header);
}
