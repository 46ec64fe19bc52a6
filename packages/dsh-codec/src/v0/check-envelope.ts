/**
 * The envelope of V0–V2 events: exactly `{seq, type, time, data}`, contiguous seq, integer time,
 * lossless data. Frozen with V0 (V3 added `surfaceOp` and `ignorable` in its own check).
 */
import { describeValue } from '../shared/describe-value.js';
import { findLossyJson, parsedJsonIsLossless } from '../shared/find-lossy-json.js';
import { eventIssue, formatPath, type Issue } from '../shared/issue.js';

const KEYS: ReadonlySet<string> = new Set(['seq', 'type', 'time', 'data']);

/** Issues of the envelope of the event at `index`; `[]` means `{seq, type, time, data}` is sound. */
export function checkV0Envelope(event: unknown, index: number, version: number): Issue[] {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) {
    return [
      eventIssue(
        index,
        [],
        `event at index ${String(index)}: expected an event object {seq, type, time, data}, got ${describeValue(event)}`,
      ),
    ];
  }
  const record = event as Record<string, unknown>;
  const issues: Issue[] = [];
  const label = `event at seq ${String(index)}${typeof record.type === 'string' ? ` (${record.type})` : ''}`;
  const add = (path: (string | number)[], message: string) => {
    issues.push(eventIssue(index, path, `${label}${path.length === 0 ? '' : `, ${formatPath(path)}`}: ${message}`));
  };
  for (const key of Object.keys(record)) {
    if (!KEYS.has(key)) add([key], `unexpected envelope key (a V${String(version)} event has exactly seq, type, time, data)`);
  }
  const seq = record.seq;
  if (seq !== index || Object.is(seq, -0))
    add(['seq'], `expected seq ${String(index)} (seqs are contiguous from 0), got ${describeValue(seq)}`);
  if (typeof record.type !== 'string' || record.type === '')
    add(['type'], `expected a non-empty string, got ${describeValue(record.type)}`);
  if (!Number.isSafeInteger(record.time) || Object.is(record.time, -0))
    add(['time'], `expected integer epoch milliseconds, got ${describeValue(record.time)}`);
  if (!('data' in record)) add(['data'], 'expected a data payload, got none');
  else {
    const lossy = findLossyJson(record.data);
    if (lossy !== undefined) add(['data', ...lossy.path], `data must be lossless JSON: ${lossy.reason}`);
  }
  return issues;
}

/**
 * True only when `checkV0Envelope` certainly finds no issue, computed without allocating; false
 * means "ask `checkV0Envelope`". `parsed` vouches that `event` comes straight from `JSON.parse`, so
 * only its numbers and nesting can make its data lossy.
 */
export function v0EnvelopeIsValid(event: unknown, index: number, parsed: boolean): boolean {
  if (typeof event !== 'object' || event === null || Array.isArray(event)) return false;
  let hasData = false;
  for (const key in event) {
    if (key === 'data') hasData = true;
    else if (key !== 'seq' && key !== 'type' && key !== 'time') return false;
  }
  if (!hasData || !Object.hasOwn(event, 'data')) return false;
  const { seq, type, time, data } = event as Record<string, unknown>;
  if (seq !== index || (index === 0 && 1 / seq < 0)) return false;
  if (typeof type !== 'string' || type === '') return false;
  if (!Number.isSafeInteger(time) || (time === 0 && 1 / (time as number) < 0)) return false;
  return parsed ? parsedJsonIsLossless(data, 1) : findLossyJson(data) === undefined;
}
