/**
 * @module A log's events read by position without requiring them all in memory: an array (a live log, a
 * decoded one), verified JSONL lines decoded as they are read (`verified-lines.ts`), or an inherited
 * prefix followed by a session's own events. Forks and Sessions read through it only what they need —
 * the cut, the latest turn, the latest title — so a fork of a large stored log decodes a few lines.
 */
import type { SessionEvent } from 'dsh-codec';
import { copyJsonTree } from '../copy-json-tree.js';
import { distinctFileCalls, fileCallOf, type FileCall } from './file-call.js';

/** The first `length` events of a log, every one validated and frozen (named by dsh-session/internal's `ObservedLog`). */
export interface EventSource {
  readonly length: number;
  /** The event at `index` (0 ≤ index < length), decoded when first read. */
  at(index: number): SessionEvent;
  /** The index of the latest event before `end` (default `length`) whose type is one of `types`, or -1. */
  findLast(types: readonly string[], end?: number): number;
  /** `[at(0), …, at(count - 1)]` as one new array (every event decoded). */
  slice(count: number): SessionEvent[];
  /**
   * The first `count` events as new, unfrozen values that nothing else holds, when the source can make
   * them without decoding and copying (stored lines parsed again, neither frozen nor kept); else absent.
   */
  fresh?(count: number): SessionEvent[];
  /**
   * Events `from..to-1` (frozen) as one new array, decoded for this call where they were not yet and
   * not kept by the source: a long walk in windows holds one window at a time. Absent: use `slice`.
   */
  read?(from: number, to: number): SessionEvent[];
  /**
   * The `FileCall`s of the tool calls among events `from..to-1` — each distinct one at least once, maybe
   * more — answered from an index where the source keeps one (a sealed segment's), so the calls are not
   * decoded. Absent: use `fileCallsOf`.
   */
  fileCalls?(from: number, to: number): FileCall[];
}

/** @internal The `FileCall`s of the tool calls among `source`'s events `from..to-1` (each distinct one at least once): its index where it has one, else its calls searched by type. */
export function fileCallsOf(source: EventSource, from: number, to: number): FileCall[] {
  if (source.fileCalls !== undefined) return source.fileCalls(from, to);
  const calls: FileCall[] = [];
  for (let end = Math.min(to, source.length); end > from;) {
    const at = source.findLast(['tool/call'], end);
    if (at < from) break;
    const call = fileCallOf(source.at(at));
    if (call !== undefined) calls.push(call);
    end = at;
  }
  return distinctFileCalls(calls.reverse());
}

/** @internal Events `from..to-1` of `source` as one new array, through `read` when it has one (nothing kept), else a slice. */
export function readEvents(source: EventSource, from: number, to: number): SessionEvent[] {
  if (source.read !== undefined) return source.read(from, to);
  return source.slice(to).slice(from);
}

/** @internal The first `count` events of `source` as new, unfrozen values the caller owns: parsed anew where the source can, else copied. */
export function ownedEvents(source: EventSource, count: number): SessionEvent[] {
  if (source.fresh !== undefined) return source.fresh(count);
  const events = source.slice(count);
  for (let index = 0; index < count; index++) events[index] = copyJsonTree(events[index] as SessionEvent);
  return events;
}

/** @internal `events[0..length)` of an array that only grows (a Session's log): a stable snapshot without copying. */
export function arraySource(events: readonly SessionEvent[], length = events.length): EventSource {
  return {
    length,
    at: (index) => events[index] as SessionEvent,
    findLast(types, end = length) {
      for (let index = Math.min(end, length) - 1; index >= 0; index--)
        if (types.includes((events[index] as SessionEvent).type)) return index;
      return -1;
    },
    read(from, to) {
      const copy = new Array<SessionEvent>(Math.max(0, to - from));
      for (let index = from; index < to; index++) copy[index - from] = events[index] as SessionEvent;
      return copy;
    },
    slice(count) {
      // An element loop: `slice()` of a frozen array takes V8's generic path (~6× slower at 50k events).
      const copy = new Array<SessionEvent>(count);
      for (let index = 0; index < count; index++) copy[index] = events[index] as SessionEvent;
      return copy;
    },
  };
}

/**
 * The events of `source[0..count)` from its latest `turn/start` on (empty when it has none): all that
 * the shared closer and the event checker need of a prefix (a `turn/start` resets every turn state).
 */
export function latestTurnOf(source: EventSource, count: number): SessionEvent[] {
  const start = source.findLast(['turn/start'], count);
  const turn: SessionEvent[] = [];
  if (start === -1) return turn;
  for (let index = start; index < count; index++) turn.push(source.at(index));
  return turn;
}
