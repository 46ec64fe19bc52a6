/**
 * The V6 header: lossless JSON, the zod shape (V5's with `version: 6`), and the lineage fields
 * among themselves.
 */
import { checkHeaderOf } from '../shared/header-check.js';
import type { Issue } from '../shared/issue.js';
import { checkForkLineage } from '../v2/fork-header-check.js';
import { sessionHeaderSchema } from './schemas.js';

/** Every issue of `header` as a V6 header; `[]` means it is a `V6Header`. */
export function checkV6Header(header: unknown): Issue[] {
  return checkHeaderOf(header, 6, sessionHeaderSchema, checkForkLineage);
}
