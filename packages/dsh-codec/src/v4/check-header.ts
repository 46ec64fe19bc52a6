/**
 * The V4 header: lossless JSON, the V4 zod shape, and the lineage fields among themselves.
 */
import { checkHeaderOf } from '../shared/header-check.js';
import type { Issue } from '../shared/issue.js';
import { checkForkLineage } from '../v2/fork-header-check.js';
import { sessionHeaderSchema } from './schemas.js';

/** Every issue of `header` as a V4 header; `[]` means it is a `V4Header`. */
export function checkV4Header(header: unknown): Issue[] {
  return checkHeaderOf(header, 4, sessionHeaderSchema, checkForkLineage);
}
