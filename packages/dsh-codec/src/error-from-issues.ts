/**
 * Builds the `CodecError` thrown for a list of validation issues: the first issue's code and
 * message (with its line when known), all issues attached.
 */
import { CodecError } from './codec-error.js';
import type { ValidationIssue } from './types.js';

/** The error for `issues` (non-empty). `lineOf` maps an issue to its 1-based file line. */
export function errorFromIssues(
  issues: readonly ValidationIssue[],
  options: { lineOf?: (issue: ValidationIssue) => number | undefined; context?: string } = {},
): CodecError {
  const first = issues[0];
  if (first === undefined) return new CodecError('CORRUPT', 'internal: no issue to report');
  const line = options.lineOf?.(first);
  const where = line === undefined ? '' : `line ${String(line)}: `;
  const more = issues.length > 1 ? ` (and ${String(issues.length - 1)} more issue${issues.length > 2 ? 's' : ''})` : '';
  const context = options.context === undefined ? '' : ` ${options.context}`;
  return new CodecError(first.code, `${where}${first.message}${context}${more}`, {
    ...(line === undefined ? {} : { line }),
    issues,
  });
}
