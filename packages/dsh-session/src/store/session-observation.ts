/**
 * @module Observations (SPEC §12): one immutable value per look at a session, produced by a store's
 * `observe()` and consumed by its `fork()`. What the store knows about the events — how many it
 * validated, how a child inherits them (with the backend's provenance) — travels inside the value, in private fields only
 * the producing store can read.
 */
import type { FormatVersion, SessionEvent, SessionHeader } from 'dsh-codec';
import { ownedEvents, type EventSource } from '../sources/event-source.js';
import type { InheritedRecords } from '../fast-backend.js';

/** One immutable observation of a session: live from memory, cold from storage; observing never writes. */
export interface SessionObservation {
  readonly sessionId: string;
  readonly header: SessionHeader;
  /**
   * Frozen; a live session's snapshot at the time of `observe()`. Built when first read: a fork of the
   * observation reads only the events it needs (its cut, the latest turn) and never builds it.
   */
  readonly events: readonly SessionEvent[];
  /**
   * A new array of new, unfrozen events deep-equal to `events`, which the caller owns: nothing in it
   * is shared with the store, this observation or another call. Verified stored lines are parsed
   * again for it (neither frozen nor kept, and `events` is not built); anything else is copied.
   */
  copyEvents(): SessionEvent[];
  /** The format version the log was read from (a live session: the version its file had when opened). */
  readonly formatVersion: FormatVersion;
  /** True when `open` would repair: an open turn to close or a torn final line to drop (never for a live session). */
  readonly needsRepair: boolean;
  /** True when the producing store holds the session open for writing. */
  readonly live: boolean;
  /** A torn final line of a cold log, if it has one. */
  readonly tornTail?: { readonly offset: number; readonly line: number };
}

/**
 * @internal What the producing store knows about an observation's events: the events themselves as a
 * source read by position (`events` is built from it), how many leading events this package already
 * validated (so a fork child's Session only advances past them), and how the first `count` events may
 * be written for a child without encoding them again.
 */
export type ObservedEvents = {
  readonly source: EventSource;
  readonly validated: number;
  readonly copy: (count: number) => InheritedRecords;
};

type ObservationFields = Omit<SessionObservation, 'tornTail' | 'events' | 'copyEvents'> & {
  tornTail?: { offset: number; line: number } | undefined;
};

class StoreObservation implements SessionObservation {
  readonly sessionId: string;
  readonly header: SessionHeader;
  readonly formatVersion: FormatVersion;
  readonly needsRepair: boolean;
  readonly live: boolean;
  readonly tornTail?: { readonly offset: number; readonly line: number };
  readonly #origin: object;
  readonly #observed: ObservedEvents;
  #events: readonly SessionEvent[] | undefined;

  constructor(fields: ObservationFields, origin: object, observed: ObservedEvents) {
    this.sessionId = fields.sessionId;
    this.header = fields.header;
    this.formatVersion = fields.formatVersion;
    this.needsRepair = fields.needsRepair;
    this.live = fields.live;
    if (fields.tornTail !== undefined) this.tornTail = Object.freeze({ ...fields.tornTail });
    this.#origin = origin;
    this.#observed = observed;
    Object.freeze(this);
  }

  get events(): readonly SessionEvent[] {
    const { source } = this.#observed;
    this.#events ??= Object.freeze(source.slice(source.length));
    return this.#events;
  }

  copyEvents(): SessionEvent[] {
    const { source } = this.#observed;
    return ownedEvents(source, source.length);
  }

  static sourceOf(candidate: unknown): EventSource | undefined {
    if (typeof candidate !== 'object' || candidate === null || !(#observed in candidate)) return undefined;
    return candidate.#observed.source;
  }

  static observedEventsOf(candidate: unknown, origin: object): ObservedEvents | undefined {
    if (typeof candidate !== 'object' || candidate === null || !(#origin in candidate)) return undefined;
    return candidate.#origin === origin ? candidate.#observed : undefined;
  }
}

/** @internal Builds an observation owned by the store whose private `origin` token is given. */
export function makeObservation(fields: ObservationFields, origin: object, observed: ObservedEvents): SessionObservation {
  return new StoreObservation(fields, origin, observed);
}

/** @internal What the store knows about the events of `candidate` when the store owning `origin` produced it, else undefined. */
export function observedEventsOf(candidate: unknown, origin: object): ObservedEvents | undefined {
  return StoreObservation.observedEventsOf(candidate, origin);
}

/** @internal The events of an observation this package built, as a source read by position (nothing decoded up front). */
export function eventSourceOf(candidate: unknown): EventSource | undefined {
  return StoreObservation.sourceOf(candidate);
}
