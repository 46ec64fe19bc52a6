/** @module `createEventSequencer`: merges stored and new events into one stream, each seq once and in order (behind `host.watch` and SSE). */
import type { SessionEvent } from 'dsh-codec';

/** Feeds events of one session to a listener from a seq on, each once and in seq order. @internal */
export type EventSequencer = {
  push(event: SessionEvent): void;
  /** The seq it delivers next. */
  next(): number;
};

/**
 * Merges the feeds of one session's events (stored, this host's live appends, another host's
 * commits) into `listener`: every seq ≥ `from` once, in order; a seq already passed is dropped.
 * With `holdAhead`, an event above the next expected seq waits until the gap below it is filled
 * (a feed that will fill it exists); without, delivery jumps over the gap, as a single feed needs.
 * @internal
 */
export function createEventSequencer(
  from: number,
  listener: (event: SessionEvent) => void,
  options: { holdAhead: boolean },
): EventSequencer {
  let next = Math.max(0, from);
  const ahead = new Map<number, SessionEvent>();
  const emit = (event: SessionEvent): void => {
    next = event.seq + 1;
    listener(event);
  };
  return {
    push(event) {
      if (event.seq < next) return;
      if (options.holdAhead && event.seq > next) {
        ahead.set(event.seq, event);
        return;
      }
      emit(event);
      for (let held = ahead.get(next); held !== undefined; held = ahead.get(next)) {
        ahead.delete(held.seq);
        emit(held);
      }
    },
    next: () => next,
  };
}
