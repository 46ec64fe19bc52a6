/**
 * @module What a `Session` is built from (SPEC §5.3): its seed and counters, the sink it writes through
 * and the clock; the store composes one for each create, open and fork.
 */
import type { FormatVersion, JsonValue, SessionEvent, SessionHeader } from 'dsh-codec';
import type { EventSource } from '../sources/event-source.js';
import type { SessionSink } from './session-sink.js';

/**
 * @internal What a Session is built from (SPEC §5.3): a new session's standalone events (title, config), a
 * fork seed (its inherited prefix as a source, its own events from the marker on), or a stored log plus its
 * repair closers with the stored prefix length.
 */
export type SessionSeed =
  | { kind: 'new'; events: readonly SessionEvent[] }
  /**
   * A fork seed whose inherited events are not copied: the source's first `cut + 1` events, read
   * through `inherited` (decoded only when someone reads them), then `events`, the seed's own events
   * from the inherited marker at `cut + 1` on. They count as durable whatever `durableCount` says:
   * the store creates the log from the inherited records it was given, then these.
   */
  | { kind: 'fork-of'; inherited: EventSource; cut: number; events: readonly SessionEvent[] }
  | { kind: 'restored'; events: readonly SessionEvent[]; storedLength: number }
  /**
   * A stored log taken as it is, without decoding it: its events read through `stored` (decoded only
   * where read), every one validated before it was stored; then `closers`, the repair of its open tail.
   */
  | { kind: 'restored-from'; stored: EventSource; closers: readonly SessionEvent[] };

/** @internal Everything the store hands a Session: its header, seed, durable prefix, sink and clock. */
export type SessionInit = {
  header: SessionHeader;
  seed: SessionSeed;
  /**
   * How many leading events are already durable, or `'all'`: the whole log as constructed (the seed,
   * then `appends`), which the store creates in one atomic `create` before it hands the Session out.
   */
  durableCount: number | 'all';
  /**
   * Events appended right after the seed exactly as `append` makes them (the same checks, errors and
   * times), before anything is written: a fork child's title and config. `firstLiveSeq` is before them.
   */
  appends?: readonly { type: string; data: JsonValue }[];
  /**
   * How many leading seed events this package already validated, in order from seq 0 (a live log, a
   * log the codec decoded): the Session only advances its checker past them and checks the rest.
   */
  validatedCount: number;
  /** The format version the log was read from (`CURRENT_FORMAT_VERSION` for a new session or fork child). */
  formatVersion: FormatVersion;
  sink: SessionSink;
  now: () => number;
};
