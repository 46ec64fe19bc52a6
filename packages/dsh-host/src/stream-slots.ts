/**
 * @module The bound on concurrent SSE streams of one HTTP app (SPEC §22): a stream takes a slot
 * before it opens and gives it back when it ends, whichever way it ends.
 */
import { HostError } from './host-error.js';

/** Seconds a refused stream request is told to wait (`Retry-After`): streams end as clients leave. */
export const STREAM_RETRY_AFTER_SECONDS = 5;

/** The open-stream count of one app and its limit. @internal */
export type StreamSlots = {
  readonly max: number;
  /** Streams open now. */
  readonly open: number;
  /** Takes a slot, or throws `TOO_MANY_STREAMS` when all are taken; the returned release is idempotent. */
  acquire(): () => void;
};

/** Slots for at most `max` concurrent streams. @internal */
export function createStreamSlots(max: number): StreamSlots {
  let open = 0;
  return {
    max,
    get open() {
      return open;
    },
    acquire() {
      if (open >= max) {
        throw new HostError(
          'TOO_MANY_STREAMS',
          `Too many event streams: this server streams to at most ${max} clients at once and all ${max} are open; retry after ${STREAM_RETRY_AFTER_SECONDS} s or close another stream.`,
        );
      }
      open += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        open -= 1;
      };
    },
  };
}
