/**
 * @module encode-header
 * A current (V7) header as its JSONL line (`encodeHeader`), keys in the documented order.
 */
import { CodecError } from './codec-error.js';
import { errorFromIssues } from './error-from-issues.js';
import type { SessionHeader } from './types.js';
import { checkV7Header } from './v7/check-header.js';

/**
 * One `'\n'`-terminated JSONL line for a V7 header (a JSONL store's manifest with its `segments`
 * included), keys in the documented order. Throws `CodecError` (`INVALID_HEADER`) for anything that
 * is not a valid V7 header.
 */
export function encodeHeader(header: SessionHeader): string {
  const issues = checkV7Header(header);
  if (issues.length > 0) throw errorFromIssues(issues);
  const ordered: Record<string, unknown> = { format: header.format, version: header.version, id: header.id, createdAt: header.createdAt };
  if (header.cwd !== undefined) ordered.cwd = header.cwd;
  if (header.parentSession !== undefined) ordered.parentSession = header.parentSession;
  if (header.forkCut !== undefined) ordered.forkCut = header.forkCut;
  ordered.inheritedEventCount = header.inheritedEventCount;
  if (header.forkRequest !== undefined) ordered.forkRequest = { key: header.forkRequest.key, digest: header.forkRequest.digest };
  if (header.segments !== undefined) ordered.segments = header.segments.map(({ digest, bytes, lines }) => ({ digest, bytes, lines }));
  return stringifyLine(ordered);
}

function stringifyLine(value: unknown): string {
  try {
    return `${JSON.stringify(value)}\n`;
  } catch (cause) {
    throw new CodecError('INVALID_HEADER', 'header: cannot be serialised as JSON', { cause });
  }
}
