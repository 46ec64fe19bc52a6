/** @module `watchEvents` and `watchDeltas`: a session's stored then new events (this host's appends and other hosts' commits), and its live deltas. */
import type { SessionEvent } from 'dsh-codec';
import type { AgentDelta } from 'dsh-agent';
import type { HostContext } from '../host-context.js';
import type { EventWatch } from '../host-types.js';
import { createEventSequencer } from './event-sequencer.js';
import { observation } from './observe-session.js';

/**
 * `host.watch` (behind SSE): every event of session `id` with seq ≥ `from` — the stored ones first,
 * then new ones — each exactly once and in seq order, until `close()`. New events come from this
 * host's live agents and, when the store can watch sessions written elsewhere (`store.watch`:
 * PostgreSQL's LISTEN/NOTIFY), from every other host's commits; both feeds meet here, so a session
 * another host writes, then this one opens, streams without a gap or a duplicate.
 * @internal
 */
export async function watchEvents(
  context: HostContext,
  id: string,
  from: number,
  listener: (event: SessionEvent) => void,
): Promise<EventWatch> {
  const { listeners, store, live } = context;
  // With a second feed, an event may arrive before one below it (this host's open of a session
  // another host just wrote): it waits until the gap is filled, which the store's feed always does.
  const ordered = store.watch !== undefined;
  const sequencer = createEventSequencer(from, listener, { holdAhead: ordered });
  let replaying = true;
  const buffered: SessionEvent[] = [];
  const onEvent = (event: SessionEvent): void => {
    if (replaying) buffered.push(event);
    else sequencer.push(event);
  };
  const set = listeners.get(id) ?? new Set();
  set.add(onEvent);
  listeners.set(id, set);
  let stopStoreWatch: (() => void) | undefined;
  const close = (): void => {
    set.delete(onEvent);
    if (set.size === 0 && listeners.get(id) === set) listeners.delete(id);
    stopStoreWatch?.();
    stopStoreWatch = undefined;
  };
  try {
    // A live session's snapshot is in memory; a cold one's stored events come from the store's feed
    // when it has one (its first read), so they are read once, not twice.
    if (!ordered || live.has(id)) for (const event of (await observation(context, id)).events) sequencer.push(event);
    if (store.watch !== undefined) {
      stopStoreWatch = await store.watch(id, sequencer.next(), (events) => {
        for (const event of events) onEvent(event);
      });
    }
    for (const event of buffered.splice(0)) sequencer.push(event);
    replaying = false;
  } catch (error) {
    close();
    throw error;
  }
  return { close };
}

/**
 * `host.watchDeltas` (behind SSE `event: delta` frames): the live model deltas of session `id` from
 * now on, until `close()`; deltas are ephemeral, so nothing is replayed.
 * @internal
 */
export function watchDeltas(context: HostContext, id: string, listener: (delta: AgentDelta) => void): EventWatch {
  const { deltaListeners } = context;
  const set = deltaListeners.get(id) ?? new Set();
  set.add(listener);
  deltaListeners.set(id, set);
  return {
    close: () => {
      set.delete(listener);
      if (set.size === 0 && deltaListeners.get(id) === set) deltaListeners.delete(id);
    },
  };
}
