/**
 * The V5 header: lossless JSON, the zod shape (V4's plus `forkRequest?`), and the lineage fields
 * among themselves.
 */
import { checkHeaderOf } from '../shared/header-check.js';
import type { Issue } from '../shared/issue.js';
import { checkForkLineage } from '../v2/fork-header-check.js';
import { sessionHeaderSchema } from './schemas.js';

/** Every issue of `header` as a V5 header; `[]` means it is a `SessionHeader`. */
export function checkV5Header(header: unknown): Issue[] {
  return checkHeaderOf(header, 5, sessionHeaderSchema, checkForkLineage);
}
