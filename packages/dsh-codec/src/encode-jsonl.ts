/**
 * @module encode-jsonl
 * A whole current (V7) log as JSONL (`encodeJsonl`), validated as V7 before anything is written.
 */
import { CodecError } from './codec-error.js';
import { serializeEvent } from './encode-event.js';
import { encodeHeader } from './encode-header.js';
import { errorFromIssues } from './error-from-issues.js';
import type { SessionEvent, SessionHeader } from './types.js';
import { validateV7 } from './v7/validate-v7.js';

/**
 * A whole current (V7) log as JSONL: the header line, then one line per event, each `'\n'`-terminated.
 * Strict when writing: throws `CodecError` unless the artifact is a valid, self-contained V7 log.
 */
export function encodeJsonl(artifact: { header: SessionHeader; events: readonly SessionEvent[] }): string {
  const events: unknown = (artifact as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new CodecError('INVALID_EVENT', 'encodeJsonl: expected {header, events: [...]}');
  const issues = validateV7(artifact);
  if (issues.length > 0) throw errorFromIssues(issues);
  let text = encodeHeader(artifact.header);
  for (const event of artifact.events) text += serializeEvent(event);
  return text;
}
