/**
 * The V3 event envelope (exact keys, contiguous seq, integer time, lossless data, `surfaceOp`
 * only on surface events, `ignorable` only `true`). Frozen with V3; V4 kept the same envelope.
 */
import { describeValue } from '../shared/describe-value.js';
import { findLossyJson } from '../shared/find-lossy-json.js';
import { eventIssue, formatPath, type Issue } from '../shared/issue.js';
import { V3_SURFACE_TYPES } from './types.js';

const KEYS: ReadonlySet<string> = new Set(['seq', 'type', 'time', 'data', 'surfaceOp', 'ignorable']);
const SURFACE_OP_KEYS: ReadonlySet<string> = new Set(['op', 'start', 'end']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0);
}

/**
 * Issues of the envelope of the event at `index`. When it returns `[]`, the event is a V3 envelope
 * whose data is lossless JSON (its payload shape is not checked here).
 */
export function checkV3Envelope(event: unknown, index: number): Issue[] {
  if (!isRecord(event))
    return [
      eventIssue(
        index,
        [],
        `event at index ${String(index)}: expected an event object {seq, type, time, data}, got ${describeValue(event)}`,
      ),
    ];
  const issues: Issue[] = [];
  const label = `event at seq ${String(index)}${typeof event.type === 'string' ? ` (${event.type})` : ''}`;
  const add = (path: (string | number)[], message: string) => {
    issues.push(eventIssue(index, path, `${label}${path.length === 0 ? '' : `, ${formatPath(path)}`}: ${message}`));
  };
  for (const key of Object.keys(event)) {
    if (!KEYS.has(key)) add([key], 'unexpected envelope key (allowed: seq, type, time, data, surfaceOp, ignorable)');
  }
  if (!isIndex(event.seq) || event.seq !== index)
    add(['seq'], `expected seq ${String(index)} (seqs are contiguous from 0), got ${describeValue(event.seq)}`);
  if (typeof event.type !== 'string' || event.type === '') add(['type'], `expected a non-empty string, got ${describeValue(event.type)}`);
  if (!Number.isSafeInteger(event.time) || Object.is(event.time, -0))
    add(['time'], `expected integer epoch milliseconds, got ${describeValue(event.time)}`);
  if (!('data' in event)) add(['data'], 'expected a data payload, got none');
  else {
    const lossy = findLossyJson(event.data);
    if (lossy !== undefined) add(['data', ...lossy.path], `data must be lossless JSON: ${lossy.reason}`);
  }
  if ('surfaceOp' in event) checkSurfaceOp(event.surfaceOp, event.type, index, add);
  if ('ignorable' in event && event.ignorable !== true)
    add(['ignorable'], `expected true or no ignorable key, got ${describeValue(event.ignorable)}`);
  return issues;
}

function checkSurfaceOp(op: unknown, type: unknown, index: number, add: (path: (string | number)[], message: string) => void): void {
  if (typeof type === 'string' && !V3_SURFACE_TYPES.has(type)) {
    add(['surfaceOp'], 'surfaceOp is only allowed on surface events (user/message, assistant/message, tool/result)');
  }
  if (!isRecord(op) || op.op !== 'replace' || Object.keys(op).some((key) => !SURFACE_OP_KEYS.has(key))) {
    add(['surfaceOp'], `expected {op: "replace", start, end}, got ${describeValue(op)}`);
    return;
  }
  const { start, end } = op;
  if (!isIndex(start) || !isIndex(end) || start > end || end >= index) {
    add(
      ['surfaceOp'],
      `expected seqs 0 <= start <= end < ${String(index)} (earlier events), got start ${describeValue(start)}, end ${describeValue(end)}`,
    );
  }
}
