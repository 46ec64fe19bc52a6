/**
 * @module `readForkPoint`: the source's side of `SessionStore.fork`, in one call — the source observed
 * once (from memory when live), the cut checked once against it, and the seed's own events at the cut.
 * Only the cut, the latest turn and (when asked) the config in force at the cut are read: a stored
 * log's lines are decoded only if the child's events are read later.
 */
import type { SessionConfig, SessionEvent } from 'dsh-codec';
import { forkSeedTail, type ForkSeedOptions } from '../build-fork-seed.js';
import type { InheritedRecords } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import type { EventSource } from '../sources/event-source.js';
import { selectCut, type LATEST_CLOSED_TURN } from './fork-cut.js';
import { observeForFork } from './observe-session.js';
import { observedEventsOf, type SessionObservation } from './session-observation.js';
import type { StoreContext } from './store-context.js';

/** @internal Where a fork cuts its source and what the child's seed holds there. */
export type ForkPoint = {
  readonly observation: SessionObservation;
  /** The source's events read by position (the child's inherited prefix, decoded only when read). */
  readonly source: EventSource;
  /** How many of the inherited events this package already validated (the child's checker only advances past them). */
  readonly validated: number;
  readonly cut: number;
  /** The seed's own events: the inherited marker at `cut + 1`, the forked closers of the open tail, then the notes. */
  readonly own: readonly SessionEvent[];
  /** When the fork point was taken: the child's `createdAt`. */
  readonly time: number;
  /** The first `cut + 1` events as the backend copies them for the child; undefined when the child inherits nothing. */
  readonly inherited: InheritedRecords | undefined;
  /** The config in force at the cut: the latest `session/config` at or before it (latest wins whole), or `{}`; only that event is read. */
  configAtCut(): SessionConfig;
};

const CONFIG = ['session/config'];

function foreignObservation(): SessionError {
  return new SessionError(
    'INVALID_OBSERVATION',
    'Cannot fork from this value: expected a session id or an observation returned by this store’s observe(), received an object this store did not produce.',
  );
}

/**
 * @internal The fork point of `source` (an id, observed once; or an observation this store produced —
 * then nothing is read or decoded again; `INVALID_OBSERVATION` otherwise) at `atSeq` (`INVALID_CUT`
 * unless it is a seq of the source or `LATEST_CLOSED_TURN`). `seed`: what the child is told of its
 * files (the closers' workspace sentence, notes), as `buildForkSeed` takes it.
 */
export async function readForkPoint(
  context: StoreContext,
  source: string | SessionObservation,
  atSeq: number | typeof LATEST_CLOSED_TURN,
  seed: Omit<ForkSeedOptions, 'time'> = {},
): Promise<ForkPoint> {
  const observation = typeof source === 'string' ? await observeForFork(context, source, atSeq) : source;
  const observed = observedEventsOf(observation, context.origin);
  if (observed === undefined) throw foreignObservation();
  const events = observed.source;
  const cut = selectCut(events, atSeq, observation.sessionId);
  const time = context.now();
  return {
    observation,
    source: events,
    validated: Math.min(observed.validated, cut + 1),
    cut,
    own: forkSeedTail(events, cut, { ...seed, time }),
    time,
    inherited: cut >= 0 ? observed.copy(cut + 1) : undefined,
    configAtCut() {
      const at = events.findLast(CONFIG, cut + 1);
      return at === -1 ? {} : (events.at(at).data as SessionConfig);
    },
  };
}
