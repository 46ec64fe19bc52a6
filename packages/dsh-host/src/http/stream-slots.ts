/**
 * @module The bounds on the SSE streams of one HTTP app: at most `max` open at once (SPEC §22) — a
 * stream takes a slot before it opens and gives it back when it ends, whichever way it ends — and
 * at most `maxTotalBytes` held for their clients together (SPEC §27): past it, the stream holding
 * the most is closed (its client reconnects with `Last-Event-ID`).
 */
import { HostError } from '../host-error.js';

/** Seconds a refused stream request is told to wait (`Retry-After`): streams end as clients leave. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** What a stream tells its slot: the bytes it holds for its client now, and how to close it. @internal */
export type HeldStream = { held(): number; close(): void };

/** One stream's slot. @internal */
export type StreamSlot = {
  /** Gives the slot back (idempotent). */
  release(): void;
  /** Names the stream behind the slot, so the slots can measure it and close it. */
  attach(stream: HeldStream): void;
  /** Says the stream's held bytes changed; may close the stream holding the most (this one or another). */
  changed(): void;
};

/** The open-stream count of one app, its limit, and the bytes its streams hold. @internal */
export type StreamSlots = {
  readonly max: number;
  /** Streams open now. */
  readonly open: number;
  /** Takes a slot, or throws `TOO_MANY_STREAMS` when all are taken. */
  acquire(): StreamSlot;
};

/** Slots for at most `max` concurrent streams holding at most `maxTotalBytes` together. @internal */
export function createStreamSlots(max: number, maxTotalBytes = Infinity): StreamSlots {
  // Each attached stream's bytes as last measured; `total` is their sum.
  const measured = new Map<StreamSlot, { stream: HeldStream; bytes: number }>();
  let open = 0;
  let total = 0;

  const forget = (slot: StreamSlot): void => {
    const entry = measured.get(slot);
    if (entry === undefined) return;
    total -= entry.bytes;
    measured.delete(slot);
  };
  const enforce = (): void => {
    if (total <= maxTotalBytes) return;
    // Figures measured earlier may have drained since: measure every stream before closing one.
    total = 0;
    for (const entry of measured.values()) {
      entry.bytes = entry.stream.held();
      total += entry.bytes;
    }
    while (total > maxTotalBytes) {
      let largest: [StreamSlot, { stream: HeldStream; bytes: number }] | undefined;
      for (const pair of measured) if (largest === undefined || pair[1].bytes > largest[1].bytes) largest = pair;
      if (largest === undefined) return;
      forget(largest[0]);
      largest[1].stream.close();
    }
  };

  return {
    max,
    get open() {
      return open;
    },
    acquire() {
      if (open >= max) {
        throw new HostError(
          'TOO_MANY_STREAMS',
          `Too many event streams: this server streams to at most ${String(max)} clients at once and all ${String(max)} are open; retry after ${String(STREAM_RETRY_AFTER_SECONDS)} s or close another stream.`,
        );
      }
      open += 1;
      let released = false;
      const slot: StreamSlot = {
        release() {
          if (released) return;
          released = true;
          open -= 1;
          forget(slot);
        },
        attach(stream) {
          if (!released) measured.set(slot, { stream, bytes: 0 });
        },
        changed() {
          const entry = measured.get(slot);
          if (entry === undefined) return;
          const bytes = entry.stream.held();
          total += bytes - entry.bytes;
          entry.bytes = bytes;
          enforce();
        },
      };
      return slot;
    },
  };
}
