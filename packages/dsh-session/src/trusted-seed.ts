/**
 * Seeds whose leading events this package has already validated (a live parent's log, or a stored log
 * the codec just decoded and validated). Internal: never exported from the package, so a caller-built
 * seed is always checked event by event.
 */
import type { SessionEvent } from 'dsh-codec';

const trusted = new WeakMap<readonly SessionEvent[], number>();

/** Marks the first `count` events of `seed` as already validated, in order, from seq 0. */
export function trustSeedPrefix(seed: readonly SessionEvent[], count: number): readonly SessionEvent[] {
  trusted.set(seed, count);
  return seed;
}

/** How many leading events of `seed` were marked as validated (0 for any other array). */
export function trustedPrefixLength(seed: readonly SessionEvent[]): number {
  return trusted.get(seed) ?? 0;
}
