/**
 * @module `findFileCalls`: what the tool calls of a log say about files (`FileCall`: tool, effect, the
 * path arguments), without decoding the calls where the log keeps an index — a sealed segment's
 * (SPEC §24) — so a fork can learn the files a long inherited history touched at the cost of its cut.
 */
import { eventSourceOf, type SessionObservation } from './session-observation.js';
import { arraySource, fileCallsOf, type EventSource } from '../sources/event-source.js';
import type { FileCall } from '../sources/file-call.js';
import type { SessionEvent } from 'dsh-codec';

/** Which tool calls `findFileCalls` looks at. */
export type FindFileCallsOptions = {
  /** Only calls with seq < `before` (default: the whole log). */
  before?: number;
  /** Only calls with seq > `after` (default: the whole log). */
  after?: number;
};

/**
 * The `FileCall`s of the `tool/call` events of `log` (an observation, or an array of events) within
 * `options`: each distinct one at least once (a call repeated in several places may come more than
 * once), in no promised order. A stored log is answered from its segments' indexes where it
 * has them (no call decoded), else searched by type.
 */
export function findFileCalls(log: SessionObservation | readonly SessionEvent[], options: FindFileCallsOptions = {}): FileCall[] {
  const source: EventSource = Array.isArray(log)
    ? arraySource(log as readonly SessionEvent[])
    : (eventSourceOf(log) ?? arraySource((log as SessionObservation).events));
  const to = Math.min(options.before ?? source.length, source.length);
  const from = Math.max(0, (options.after ?? -1) + 1);
  return from >= to ? [] : fileCallsOf(source, from, to);
}
