/**
 * The header check of a version since V4: lossless JSON, the version's zod shape, then the
 * lineage fields among themselves. A version folder configures it with its number and schema.
 */
import type { z } from 'zod';
import { describeValue } from './describe-value.js';
import { findLossyJson } from './find-lossy-json.js';
import { formatPath, headerIssue, type Issue } from './issue.js';
import { fromZodIssues } from './zod-issues.js';

/** Every issue of `header` as a header of `version`; `[]` means it has the schema's shape and sound lineage. */
export function checkHeaderOf<Header>(
  header: unknown,
  version: number,
  schema: z.ZodType<Header>,
  lineage: (header: Header) => Issue[],
): Issue[] {
  if (typeof header !== 'object' || header === null || Array.isArray(header)) {
    return [
      headerIssue(
        [],
        `header: expected {format: "dsh-session", version: ${String(version)}, id, createdAt, inheritedEventCount}, got ${describeValue(header)}`,
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
  if (!result.success) {
    return fromZodIssues(result.error.issues, header, [], 'header', (path, message) => headerIssue(path, message));
  }
  return lineage(header as Header);
}
