/**
 * The incremental check for appending one event at a time (used by `Session.append`), over any
 * version's `EventValidator`; `createEventChecker` configures it with the current version's rules.
 */
import type { SessionEvent, ValidationIssue } from '../types.js';
import type { EventValidator } from './event-validator.js';

/** Checks events appended one by one to a current log that starts at seq 0. */
export interface EventChecker {
  /**
   * Every issue of appending `event` (shape and relationships, SPEC §3). `[]` means it was accepted
   * and the checker advanced; otherwise nothing changed. `plainJson`: the caller vouches that the
   * event is a fresh tree of plain objects and arrays (from `JSON.parse`, or copied after
   * `isLosslessJson`), so only the cheap lossless checks (numbers, depth) run again.
   */
  accept(event: unknown, plainJson?: boolean): ValidationIssue[];
  /**
   * Advances past an event already validated at this position of a log (by `decodeJsonl` or another
   * checker) without checking it again; only for trusted events, in order, with the expected seq.
   */
  advance(event: SessionEvent): void;
  /**
   * Advances past `events[0..count)`, a trusted prefix starting at this checker's `nextSeq` (0 for a
   * fresh checker), as `advance` on each would, in time proportional to the latest turn only: the
   * relationships of SPEC §3 are checked within a turn, and a `turn/start` resets every piece of
   * state except the turn number it carries, so only the events from the prefix's latest
   * `turn/start` on are replayed.
   */
  advanceThrough(events: readonly SessionEvent[], count: number): void;
  /**
   * Advances past a trusted prefix of `count` events starting at this checker's `nextSeq`, given
   * only its latest turn: `latestTurn` holds the prefix's events from its latest `turn/start` through
   * its end (empty when the prefix has no `turn/start`). The same state as `advanceThrough` on the
   * whole prefix, for a prefix that is not decoded (a fork of a stored log copies its lines as bytes).
   */
  advancePast(count: number, latestTurn: readonly SessionEvent[]): void;
  /** The seq the next accepted event must carry. */
  readonly nextSeq: number;
}

/** A fresh checker over `validator` (fresh too), expecting seq 0; feed it a seed then live events, in order. */
export function eventCheckerOver<View>(validator: EventValidator<View>): EventChecker {
  let nextSeq = 0;
  return {
    accept(event: unknown, plainJson = false): ValidationIssue[] {
      const { issues, view } = validator.check(event, nextSeq, plainJson);
      if (issues.length > 0 || view === undefined) return issues;
      validator.apply(view);
      nextSeq++;
      return issues;
    },
    advance(event: SessionEvent): void {
      if (event.seq !== nextSeq)
        throw new RangeError(`EventChecker.advance: expected seq ${String(nextSeq)}, received ${String(event.seq)}`);
      validator.applyTrusted(event);
      nextSeq++;
    },
    advanceThrough(events: readonly SessionEvent[], count: number): void {
      if (!Number.isInteger(count) || count < 0 || count > events.length) {
        throw new RangeError(`EventChecker.advanceThrough: expected a count from 0 to ${String(events.length)}, received ${String(count)}`);
      }
      if (count === 0) return;
      if (events[0]?.seq !== nextSeq)
        throw new RangeError(
          `EventChecker.advanceThrough: expected the prefix to start at seq ${String(nextSeq)}, received ${String(events[0]?.seq)}`,
        );
      let from = count;
      for (let index = count - 1; index >= 0; index--) {
        if ((events[index] as SessionEvent).type === 'turn/start') {
          from = index;
          break;
        }
      }
      this.advancePast(count, from === count ? [] : events.slice(from, count));
    },
    advancePast(count: number, latestTurn: readonly SessionEvent[]): void {
      if (!Number.isInteger(count) || count < latestTurn.length) {
        throw new RangeError(
          `EventChecker.advancePast: expected a count of at least ${String(latestTurn.length)} events, received ${String(count)}`,
        );
      }
      const end = nextSeq + count;
      const first = latestTurn[0];
      if (first !== undefined && (first.type !== 'turn/start' || first.seq !== end - latestTurn.length)) {
        throw new RangeError(
          `EventChecker.advancePast: expected the latest turn to start with a turn/start at seq ${String(end - latestTurn.length)}, received ${first.type} at seq ${String(first.seq)}`,
        );
      }
      // Events before the latest turn/start cannot change what it resets; a prefix without one has
      // no turn state at all (its events only advance the seq).
      for (const event of latestTurn) validator.applyTrusted(event);
      nextSeq = end;
    },
    get nextSeq() {
      return nextSeq;
    },
  };
}
