/**
 * @module `takeSeed`: how a `Session` (`session.ts`) admits the seed the store hands it (SPEC §5.3) into
 * its log — a fork child's inherited prefix and its marker, a restored log and its closers, a log
 * this package already validated — and which of those events are durable already.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { checkForkSeed, isEndSeed } from './check-fork-seed.js';
import type { SessionSeed } from './session-init.js';
import type { SessionLog } from './session-log.js';

/** What admitting a seed left: how many of its events are durable, and the first seq of this lifecycle. */
export type TakenSeed = { durableCount: number; firstLifecycleSeq: number };

/**
 * Admits `seed` into `log` (empty) for the session `header` names. `validatedCount` events of it this
 * package already checked; `durableCount` of them are stored. The marker a lifecycle starts with is
 * timed by `now`, never before the event it follows.
 */
export function takeSeed(
  log: SessionLog,
  header: SessionHeader,
  seed: SessionSeed,
  counts: { validatedCount: number; durableCount: number },
  now: () => number,
): TakenSeed {
  const { validatedCount, durableCount } = counts;
  if (seed.kind === 'fork-of') {
    const count = seed.cut + 1;
    log.inherit(seed.inherited, count, validatedCount >= count);
    for (const event of seed.events) log.admit(event);
    checkForkSeed(header.id, header, seed.events, seed.cut, count);
    // The inherited events count as durable: the sink creates the log from their records.
    return { durableCount: count, firstLifecycleSeq: count };
  }
  if (seed.kind === 'restored-from') {
    const stored = seed.stored.length;
    log.inherit(seed.stored, stored, true);
    for (const event of seed.closers) log.admit(event);
    if (!isEndSeed(log.last)) log.admit(endSeedMarker(log, now));
    return { durableCount, firstLifecycleSeq: stored };
  }
  // A prefix this package already validated (live parent, codec-decoded log) only advances the checker.
  const trustedCount = Math.min(Math.max(0, validatedCount), seed.events.length);
  log.adopt(seed.events, trustedCount);
  for (let index = trustedCount; index < seed.events.length; index++) log.admit(seed.events[index] as SessionEvent);
  if (seed.kind === 'restored') {
    if (!isEndSeed(seed.events.at(-1))) log.admit(endSeedMarker(log, now));
    return { durableCount, firstLifecycleSeq: seed.storedLength };
  }
  log.admit(endSeedMarker(log, now));
  return { durableCount, firstLifecycleSeq: 0 };
}

/** The `session/end-seed` marker appended next, timed no earlier than the event before it. */
function endSeedMarker(log: SessionLog, now: () => number): SessionEvent {
  const previous = log.last;
  const time = Math.max(now(), previous?.time ?? Number.MIN_SAFE_INTEGER);
  return { seq: log.length, type: 'session/end-seed', time, data: {} };
}
