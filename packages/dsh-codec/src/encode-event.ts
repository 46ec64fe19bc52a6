/**
 * @module encode-event
 * One event as one JSONL line: `encodeEvent` checks its current (V7) shape first,
 * `serializeEvent` writes an event already validated.
 */
import { CodecError } from './codec-error.js';
import { errorFromIssues } from './error-from-issues.js';
import type { SessionEvent } from './types.js';
import { checkV7EventShape } from './v7/check-event-shape.js';

/**
 * One `'\n'`-terminated JSONL line for an event: envelope keys in the order seq, type, time, data,
 * surfaceOp, ignorable; `data` serialised as given. Throws `CodecError` (`INVALID_EVENT`) for an
 * event whose V7 shape is invalid (relationships are the event checker's job).
 */
export function encodeEvent(event: SessionEvent): string {
  const seq = (event as { seq?: unknown } | null)?.seq;
  const index = typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
  const issues = checkV7EventShape(event, index);
  if (issues.length > 0) throw errorFromIssues(issues);
  return serializeEvent(event);
}

/**
 * The line of `encodeEvent` for an event already validated (accepted by an `EventChecker`, decoded by
 * `decodeJsonl`, or checked by `encodeJsonl` once for all): nothing is checked again.
 */
export function serializeEvent(event: SessionEvent): string {
  let data: string;
  try {
    data = JSON.stringify(event.data);
  } catch (cause) {
    throw new CodecError(
      'INVALID_EVENT',
      `event at seq ${String(event.seq)} (${event.type}): data cannot be serialised as JSON (nested too deeply?)`,
      { cause },
    );
  }
  let line = `{"seq":${String(event.seq)},"type":${JSON.stringify(event.type)},"time":${String(event.time)},"data":${data}`;
  if (event.surfaceOp !== undefined) {
    line += `,"surfaceOp":{"op":"replace","start":${String(event.surfaceOp.start)},"end":${String(event.surfaceOp.end)}}`;
  }
  if (event.ignorable === true) line += ',"ignorable":true';
  return `${line}}\n`;
}
