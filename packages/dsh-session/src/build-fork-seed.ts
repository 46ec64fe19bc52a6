/**
 * The one fork-seed builder (SPEC §5.1): the store's forks and the `dsh-session/fork` entry both use
 * it, so a seed is composed in exactly one place.
 */
import type { SessionEvent } from 'dsh-codec';
import { closeOpenTail } from './close-open-tail.js';

/**
 * `events[0..count)` as a new array. `slice()` of a frozen array (an observation's events) takes V8's
 * generic path, ~6× a plain one at 50k events (measured); an element loop does not.
 */
function copyPrefix(events: readonly SessionEvent[], count: number): SessionEvent[] {
  if (!Object.isFrozen(events)) return events.slice(0, count);
  const copy = new Array<SessionEvent>(count);
  for (let index = 0; index < count; index++) copy[index] = events[index] as SessionEvent;
  return copy;
}

/**
 * The seed of a fork child: `events[0..cut]` (reused, not copied), the child's inherited marker at
 * `cut + 1` with the time of `events[cut]`, then the forked closers of the open tail. Pure; the caller
 * validates `cut` (a cut outside -1..last is a RangeError here, a bug of the caller). `cut = -1`
 * inherits nothing and stamps the marker with `time` (default 0).
 */
export function buildForkSeed(events: readonly SessionEvent[], cut: number, time?: number): SessionEvent[] {
  if (!Number.isInteger(cut) || cut < -1 || cut >= events.length) {
    throw new RangeError(`buildForkSeed: expected a cut from -1 to ${events.length - 1}, received ${String(cut)}`);
  }
  const seed = copyPrefix(events, cut + 1);
  const markerTime = cut === -1 ? (time ?? 0) : (events[cut] as SessionEvent).time;
  seed.push({ seq: cut + 1, type: 'session/end-seed', time: markerTime, data: { inherited: true } });
  for (const closer of closeOpenTail(seed, 'forked')) seed.push(closer);
  return seed;
}
