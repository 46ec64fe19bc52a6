/**
 * @module dsh-session/fork
 * Exact-event fork seeds (SPEC §5.1). This entry holds one export; the main entry never imports it.
 */
import type { SessionEvent } from 'dsh-codec';
import { closeOpenTail } from './close-open-tail.js';

/**
 * The seed of a fork child: `events[0..cut]` (reused, not copied), the child's inherited marker at
 * `cut + 1` with the time of `events[cut]`, then the forked closers of the open tail. Pure; the caller
 * validates `cut`. `cut = -1` inherits nothing and stamps the marker with `time` (default 0).
 */
export function buildForkSeed(events: readonly SessionEvent[], cut: number, time?: number): SessionEvent[] {
  if (!Number.isInteger(cut) || cut < -1 || cut >= events.length) {
    throw new RangeError(`buildForkSeed: expected a cut from -1 to ${events.length - 1}, received ${String(cut)}`);
  }
  const prefix = events.slice(0, cut + 1);
  const markerTime = cut === -1 ? (time ?? 0) : (events[cut] as SessionEvent).time;
  const marker: SessionEvent = { seq: cut + 1, type: 'session/end-seed', time: markerTime, data: { inherited: true } };
  const withMarker = [...prefix, marker];
  return [...withMarker, ...closeOpenTail(withMarker, 'forked')];
}
