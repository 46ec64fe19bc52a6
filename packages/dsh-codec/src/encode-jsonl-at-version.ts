/**
 * @module encode-jsonl-at-version
 * A self-contained current (V7) log as JSONL of a version dsh can write: V7 (`encodeJsonl`) or V6 (the
 * downgrade a user going back to a V6 dsh needs), never dropping what the older version cannot hold.
 */
import { CodecError } from './codec-error.js';
import { CURRENT_FORMAT_VERSION } from './current-format-version.js';
import { serializeEvent } from './encode-event.js';
import { encodeJsonl } from './encode-jsonl.js';
import { errorFromIssues } from './error-from-issues.js';
import { describeValue } from './shared/describe-value.js';
import type { SessionEvent, SessionHeader, ValidationIssue } from './types.js';
import type { V6Header } from './v6/types.js';
import { migrateV7ToV6 } from './v7/migrate-v7-to-v6.js';
import { validateV7 } from './v7/validate-v7.js';

/** The format versions `encodeJsonlAtVersion` writes: the current one and the one before it. */
export const WRITABLE_FORMAT_VERSIONS = [6, 7] as const;

/**
 * The log as JSONL of `version`: 7 is `encodeJsonl`; 6 is the V6 log with the same events (header
 * `version: 6`, keys in V6's order), accepted by the frozen V6 validator. Throws `CodecError`: the
 * artifact's first issue as a V7 log (a manifest naming segments is not self-contained:
 * `INVALID_HEADER`); `UNREPRESENTABLE` naming the first event (by seq) V6 cannot hold;
 * `UNSUPPORTED_VERSION` for any other `version`, naming the ones it writes.
 */
export function encodeJsonlAtVersion(artifact: { header: SessionHeader; events: readonly SessionEvent[] }, version: 6 | 7): string {
  // Widened: a JavaScript caller may pass any value.
  const target: unknown = version;
  if (target === CURRENT_FORMAT_VERSION) return encodeJsonl(artifact);
  if (target !== 6) {
    throw new CodecError(
      'UNSUPPORTED_VERSION',
      `encodeJsonlAtVersion: expected a format version dsh writes, ${WRITABLE_FORMAT_VERSIONS.join(' or ')}, got ${describeValue(target)}`,
    );
  }
  const events: unknown = (artifact as { events?: unknown } | null)?.events;
  if (!Array.isArray(events)) throw new CodecError('INVALID_EVENT', 'encodeJsonlAtVersion: expected {header, events: [...]}');
  const issues = validateV7(artifact);
  if (issues.length > 0) throw errorFromIssues(issues, { context: '(before writing it as V6)' });
  const v6 = migrateV7ToV6(artifact);
  if (v6.issues.length > 0) throw unrepresentable(v6.issues, artifact.events);
  let text = encodeV6Header(v6.header);
  for (const event of v6.events) text += serializeEvent(event);
  return text;
}

/** A V6 header line, keys in the order a V6 dsh wrote them (the V7 order without `segments`). */
function encodeV6Header(header: V6Header): string {
  const ordered: Record<string, unknown> = { format: header.format, version: header.version, id: header.id, createdAt: header.createdAt };
  if (header.cwd !== undefined) ordered.cwd = header.cwd;
  if (header.parentSession !== undefined) ordered.parentSession = header.parentSession;
  if (header.forkCut !== undefined) ordered.forkCut = header.forkCut;
  ordered.inheritedEventCount = header.inheritedEventCount;
  if (header.forkRequest !== undefined) ordered.forkRequest = { key: header.forkRequest.key, digest: header.forkRequest.digest };
  return `${JSON.stringify(ordered)}\n`;
}

/** `UNREPRESENTABLE` for the first of `issues` (the frozen V6 validator's), naming its event by seq and type. */
export function unrepresentable(issues: readonly ValidationIssue[], events: readonly SessionEvent[]): CodecError {
  const first = issues[0] as ValidationIssue;
  const index = first.path[0] === 'events' && typeof first.path[1] === 'number' ? first.path[1] : undefined;
  const event = index === undefined ? undefined : events[index];
  const seq = first.seq ?? event?.seq;
  const what = seq === undefined ? 'the header' : `event seq ${String(seq)}${event === undefined ? '' : ` (${event.type})`}`;
  const more = issues.length > 1 ? ` (and ${String(issues.length - 1)} more issue${issues.length > 2 ? 's' : ''})` : '';
  return new CodecError(
    'UNREPRESENTABLE',
    `${what} holds data format V6 cannot hold, so the log cannot go back to V6 without losing it: ${first.message}${more}. Nothing was dropped; keep the log at V7.`,
    { issues },
  );
}
