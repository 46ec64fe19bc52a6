/**
 * A Session's log in memory: optionally an inherited prefix read through an `EventSource` (a fork
 * child's parent events, decoded only when someone reads them), then the events this Session holds.
 */
import type { SessionEvent } from 'dsh-codec';
import { arraySource, joinedSource, type EventSource } from './event-source.js';

/** @internal The events of one Session, seq = index. */
export class SessionLog {
  #inherited: EventSource | undefined;
  #base: number;
  #own: SessionEvent[];

  /** `inherited[0..base)` (not read here) followed by `own`. */
  constructor(own: SessionEvent[], inherited?: EventSource, base = 0) {
    this.#own = own;
    this.#inherited = inherited;
    this.#base = inherited === undefined ? 0 : base;
  }

  get length(): number {
    return this.#base + this.#own.length;
  }

  /** The latest event, read without decoding an inherited prefix. */
  get last(): SessionEvent | undefined {
    return this.#own.at(-1) ?? (this.#base > 0 ? this.#inherited?.at(this.#base - 1) : undefined);
  }

  push(event: SessionEvent): void {
    this.#own.push(event);
  }

  /** Every event as one array that later pushes extend; an inherited prefix is decoded here, once. */
  all(): readonly SessionEvent[] {
    const inherited = this.#inherited;
    if (inherited !== undefined) {
      const events = inherited.slice(this.#base);
      for (const event of this.#own) events.push(event);
      this.#own = events;
      this.#inherited = undefined;
      this.#base = 0;
    }
    return this.#own;
  }

  /** Events `from..to-1`; decodes the inherited prefix only when the range reaches into it. */
  range(from: number, to: number): SessionEvent[] {
    if (from < this.#base) return this.all().slice(from, to);
    return this.#own.slice(from - this.#base, to - this.#base);
  }

  /** The latest event whose type is one of `types`, read without decoding the rest of an inherited prefix. */
  findLast(types: readonly string[]): SessionEvent | undefined {
    for (let index = this.#own.length - 1; index >= 0; index--) {
      const event = this.#own[index] as SessionEvent;
      if (types.includes(event.type)) return event;
    }
    if (this.#inherited === undefined) return undefined;
    const index = this.#inherited.findLast(types, this.#base);
    return index === -1 ? undefined : this.#inherited.at(index);
  }

  /** The log as it is now, as a source that later appends do not change (nothing is copied or decoded). */
  snapshot(): EventSource {
    if (this.#inherited === undefined) return arraySource(this.#own, this.#own.length);
    return joinedSource(this.#inherited, this.#base, this.#own, this.#own.length);
  }
}
