/**
 * The V4 event envelope: exactly seq, type, time, data, surfaceOp?, ignorable?; contiguous seq;
 * integer time; lossless data; `surfaceOp` only on surface events, pointing at earlier seqs.
 * Same rules as V3's frozen check, tuned for the open path: nothing is built unless it fails,
 * and values fresh from `JSON.parse` only need their numbers checked.
 */
import { describeValue } from '../shared/describe-value.js';
import { findLossyJson, parsedJsonIsLossless } from '../shared/find-lossy-json.js';
import { eventIssue, formatPath, type Issue } from '../shared/issue.js';

const KEYS: ReadonlySet<string> = new Set(['seq', 'type', 'time', 'data', 'surfaceOp', 'ignorable']);
const SURFACE_TYPES: ReadonlySet<string> = new Set(['user/message', 'assistant/message', 'tool/result']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isIndex(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0 && !Object.is(value, -0);
}

/**
 * The happy path of `checkV4Envelope`: true only when the envelope certainly has no issue (no
 * closures, nothing allocated). False sends the event to the full check, which says why.
 */
function envelopeIsValid(event: Record<string, unknown>, index: number, parsed: boolean): boolean {
  let hasData = false;
  for (const key in event) {
    switch (key) {
      case 'seq':
      case 'type':
      case 'time':
        break;
      case 'data':
        hasData = true;
        break;
      case 'ignorable':
        if (event.ignorable !== true) return false;
        break;
      default:
        // `surfaceOp` (rare) and anything unexpected take the full check.
        return false;
    }
  }
  if (!hasData || !Object.hasOwn(event, 'data')) return false;
  const { seq, type, time } = event;
  if (seq !== index || (index === 0 && 1 / seq < 0)) return false;
  if (typeof type !== 'string' || type === '') return false;
  if (!Number.isSafeInteger(time) || (time === 0 && 1 / (time as number) < 0)) return false;
  return parsed ? parsedJsonIsLossless(event.data, 1) : findLossyJson(event.data) === undefined;
}

/**
 * True only when `event` is an envelope `checkV4Envelope` certainly finds no issue in (no closures,
 * nothing allocated); false means "ask `checkV4Envelope`", which says why (or that it is sound after all).
 */
export function v4EnvelopeIsValid(event: unknown, index: number, parsed = false): boolean {
  return isRecord(event) && envelopeIsValid(event, index, parsed);
}

/**
 * Issues of the envelope of the event at `index`. `parsed` vouches that `event` comes straight
 * from `JSON.parse` (the decoder), which allows a cheaper lossless check.
 */
export function checkV4Envelope(event: unknown, index: number, parsed = false): Issue[] {
  if (!isRecord(event))
    return [
      eventIssue(
        index,
        [],
        `event at index ${String(index)}: expected an event object {seq, type, time, data}, got ${describeValue(event)}`,
      ),
    ];
  if (envelopeIsValid(event, index, parsed)) return [];
  let issues: Issue[] | undefined;
  const add = (path: (string | number)[], message: string) => {
    const label = `event at seq ${String(index)}${typeof event.type === 'string' ? ` (${event.type})` : ''}`;
    (issues ??= []).push(eventIssue(index, path, `${label}${path.length === 0 ? '' : `, ${formatPath(path)}`}: ${message}`));
  };
  for (const key of Object.keys(event)) {
    if (!KEYS.has(key)) add([key], 'unexpected envelope key (allowed: seq, type, time, data, surfaceOp, ignorable)');
  }
  const { seq, type, time } = event;
  if (seq !== index || Object.is(seq, -0))
    add(['seq'], `expected seq ${String(index)} (seqs are contiguous from 0), got ${describeValue(seq)}`);
  if (typeof type !== 'string' || type === '') add(['type'], `expected a non-empty string, got ${describeValue(type)}`);
  if (!Number.isSafeInteger(time) || Object.is(time, -0)) add(['time'], `expected integer epoch milliseconds, got ${describeValue(time)}`);
  if (!('data' in event)) add(['data'], 'expected a data payload, got none');
  else if (!parsed || !parsedJsonIsLossless(event.data, 1)) {
    const lossy = findLossyJson(event.data);
    if (lossy !== undefined) add(['data', ...lossy.path], `data must be lossless JSON: ${lossy.reason}`);
  }
  if ('surfaceOp' in event) checkSurfaceOp(event.surfaceOp, type, index, add);
  if ('ignorable' in event && event.ignorable !== true)
    add(['ignorable'], `expected true or no ignorable key, got ${describeValue(event.ignorable)}`);
  return issues ?? [];
}

function checkSurfaceOp(op: unknown, type: unknown, index: number, add: (path: (string | number)[], message: string) => void): void {
  if (typeof type === 'string' && !SURFACE_TYPES.has(type)) {
    add(['surfaceOp'], 'surfaceOp is only allowed on surface events (user/message, assistant/message, tool/result)');
  }
  if (!isRecord(op) || op.op !== 'replace' || Object.keys(op).some((key) => key !== 'op' && key !== 'start' && key !== 'end')) {
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
