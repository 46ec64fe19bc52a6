/**
 * The one fork-seed builder (SPEC §5.1): the store's forks and the `dsh-session/fork` entry both use
 * it, so a seed is composed in exactly one place. The store asks only for the seed's own part (the
 * marker and the closers, `forkSeedTail`), read from its source's cut and latest turn, and writes the
 * inherited events without copying them; `buildForkSeed` is that part after `events[0..cut]`.
 */
import type { SessionEvent, SessionNoteData } from 'dsh-codec';
import { closeOpenTail } from './close-open-tail.js';

/**
 * What a fork seed is told beyond the cut (SPEC §23, format V6): `time` stamps the marker of a seed
 * that inherits nothing (`cut = -1`; default 0); `workspace: 'at-cut'` says the child's files are the
 * workspace at the cut, so each forked closer adds the codec's workspace sentence; `notes` (built by
 * dsh-codec's `workspaceStaleNote` / `workspaceMovedNote`) follow the closers as `session/note` events.
 */
export type ForkSeedOptions = { time?: number; workspace?: 'at-cut'; notes?: readonly SessionNoteData[] };

/** The events of a log read by position (the store's event sources have this shape; an array is wrapped). */
type IndexedEvents = {
  readonly length: number;
  at(index: number): SessionEvent;
  /** The index of the latest event before `end` whose type is one of `types`, or -1. */
  findLast(types: readonly string[], end?: number): number;
};

function indexed(events: readonly SessionEvent[]): IndexedEvents {
  return {
    length: events.length,
    at: (index) => events[index] as SessionEvent,
    findLast(types, end = events.length) {
      for (let index = end - 1; index >= 0; index--) if (types.includes((events[index] as SessionEvent).type)) return index;
      return -1;
    },
  };
}

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
 * The seed's own events of a fork at `cut`: the child's inherited marker at `cut + 1` with the time of
 * the event at `cut`, then the forked closers of the open tail, then the notes, all with the marker's
 * time. Only the cut and the events from the latest `turn/start` at or before it are read (a
 * `turn/start` resets everything the closer tracks). The notes are used as given (the caller copies).
 * @internal
 */
export function forkSeedTail(events: IndexedEvents, cut: number, options: ForkSeedOptions = {}): SessionEvent[] {
  const { time, workspace, notes = [] } = options;
  if (!Number.isInteger(cut) || cut < -1 || cut >= events.length) {
    throw new RangeError(`buildForkSeed: expected a cut from -1 to ${events.length - 1}, received ${String(cut)}`);
  }
  const marker: SessionEvent = {
    seq: cut + 1,
    type: 'session/end-seed',
    time: cut === -1 ? (time ?? 0) : events.at(cut).time,
    data: { inherited: true },
  };
  const turnStart = events.findLast(['turn/start'], cut + 1);
  const tail: SessionEvent[] = [];
  if (turnStart !== -1) for (let index = turnStart; index <= cut; index++) tail.push(events.at(index));
  tail.push(marker);
  const own = [marker, ...closeOpenTail(tail, 'forked', workspace === undefined ? {} : { workspace })];
  for (const note of notes) own.push({ seq: marker.seq + own.length, type: 'session/note', time: marker.time, data: note });
  return own;
}

/**
 * The seed of a fork child: `events[0..cut]` (reused, not copied), the child's inherited marker at
 * `cut + 1` with the time of `events[cut]`, then the forked closers of the open tail. Pure; the caller
 * validates `cut` (a cut outside -1..last is a RangeError here, a bug of the caller). `cut = -1`
 * inherits nothing and stamps the marker with `time` (default 0). The third argument is that time,
 * or `ForkSeedOptions`: the workspace at the cut (closers add the V6 workspace sentence) and notes.
 */
export function buildForkSeed(events: readonly SessionEvent[], cut: number, timeOrOptions?: number | ForkSeedOptions): SessionEvent[] {
  const options = typeof timeOrOptions === 'number' ? { time: timeOrOptions } : (timeOrOptions ?? {});
  const own = forkSeedTail(indexed(events), cut, options);
  const seed = copyPrefix(events, cut + 1);
  for (const event of own) seed.push(event);
  return seed;
}
