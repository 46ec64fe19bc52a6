/**
 * The V7 header: lossless JSON, the zod shape (V6's with `version: 7` and optional `segments`), and
 * the lineage fields among themselves. A header naming segments is a JSONL store's manifest: a log
 * (what `validate(7)` and the decoder read) is self-contained and names none.
 */
import { checkHeaderOf } from '../shared/header-check.js';
import { headerIssue, type Issue } from '../shared/issue.js';
import type { SessionHeader } from '../types.js';
import { checkForkLineage } from '../v2/fork-header-check.js';
import { sessionHeaderSchema } from './schemas.js';

/** Every issue of `header` as a V7 header, a manifest's included; `[]` means it is a `SessionHeader`. */
export function checkV7Header(header: unknown): Issue[] {
  return checkHeaderOf(header, 7, sessionHeaderSchema, checkForkLineage);
}

/** Every issue of `header` as the header of a self-contained V7 log: a V7 header naming no segments. */
export function checkV7LogHeader(header: unknown): Issue[] {
  const issues = checkV7Header(header);
  if (issues.length > 0) return issues;
  const { segments } = header as SessionHeader;
  if (segments === undefined) return [];
  return [
    headerIssue(
      ['segments'],
      `header.segments: expected a self-contained log (no segments), got a JSONL store's manifest naming ${String(segments.length)} sealed segment(s): read it through its store (\`dsh export\` writes it whole)`,
    ),
  ];
}
