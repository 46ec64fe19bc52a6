import type { SessionEvent } from 'dsh-codec';
import type { AgentDelta } from 'dsh-agent';
import type { HostContext } from './host-context.js';
import type { EventWatch } from './host-types.js';
import { observation } from './observe-session.js';

/**
 * `host.watch` (behind SSE): every event of session `id` with seq ≥ `from` — the observed ones
 * first, then live appends — each exactly once and in order, until `close()`.
 * @internal
 */
export async function watchEvents(context: HostContext, id: string, from: number, listener: (event: SessionEvent) => void): Promise<EventWatch> {
  const { listeners } = context;
  let next = Math.max(0, from);
  let replaying = true;
  const buffered: SessionEvent[] = [];
  const deliver = (event: SessionEvent): void => {
    if (event.seq < next) return;
    next = event.seq + 1;
    listener(event);
  };
  const onEvent = (event: SessionEvent): void => {
    if (replaying) buffered.push(event);
    else deliver(event);
  };
  const set = listeners.get(id) ?? new Set();
  set.add(onEvent);
  listeners.set(id, set);
  const close = (): void => {
    set.delete(onEvent);
    if (set.size === 0 && listeners.get(id) === set) listeners.delete(id);
  };
  try {
    const { events } = await observation(context, id);
    for (const event of events) deliver(event);
    for (const event of buffered.splice(0)) deliver(event);
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
