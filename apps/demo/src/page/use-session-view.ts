/**
 * The open session as the page shows it: loaded once (a crashed log is opened, so its repair shows
 * first), then followed over SSE — each event appended in seq order, and the running step's
 * streamed text (`event: delta` frames) kept until its persisted message replaces it.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { api, ApiError, followEvents } from './api.js';
import { afterEvent, withDelta, type StreamingText } from './streaming-text.js';
import type { Observation, WireEvent } from './wire.js';

/**
 * One loaded session. `repairedFrom`: the stored length of a crashed log this page opened (its
 * repair starts there); `streaming`: text of the running step not yet persisted.
 */
export type View = {
  id: string;
  observation: Observation;
  events: WireEvent[];
  repairedFrom: number | undefined;
  streaming: StreamingText | undefined;
};

/** An error as a notice shows it: the API's code and message, or the error's message. */
export function describeError(error: unknown): string {
  if (error instanceof ApiError) return `${error.code}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

type Options = {
  /** Changes when the view must be loaded again (e.g. after a gap in the seqs). */
  reloads: number;
  reload: () => void;
  refreshList: () => Promise<void>;
  notify: (text: string, tone?: 'info' | 'error') => void;
};

/** Loads and follows `currentId`; `loaded` may still be the previous session's view while the next loads. */
export function useSessionView(currentId: string | undefined, { reloads, reload, refreshList, notify }: Options) {
  const [loaded, setView] = useState<View | undefined>();
  const [loadError, setLoadError] = useState<string | undefined>();
  // Crashed sessions this page opened, with their stored length: the repair is shown from there.
  const repaired = useRef(new Map<string, number>());

  useEffect(() => {
    if (currentId === undefined) {
      setView(undefined);
      return;
    }
    let stopped = false;
    let stop = (): void => undefined;
    setLoadError(undefined);
    const id = currentId;
    // Observing is read-only. A crashed log is opened at once, so its repair is what the user sees
    // first; other cold sessions stay cold until the user acts on them.
    const load = async (): Promise<Observation> => {
      const observed = await api.observe(id);
      if (observed.live || !observed.needsRepair) return observed;
      try {
        const opened = await api.open(id);
        repaired.current.set(id, observed.events.length);
        void refreshList();
        return opened;
      } catch (error) {
        if (!stopped) notify(`${id} could not be opened, so it is shown as stored, unrepaired: ${describeError(error)}`, 'error');
        return observed;
      }
    };
    const onEvent = (event: WireEvent) => {
      setView((previous) => {
        if (previous?.id !== id) return previous;
        if (event.seq < previous.events.length) return previous;
        if (event.seq > previous.events.length) {
          reload();
          return previous;
        }
        return { ...previous, events: [...previous.events, event], streaming: afterEvent(previous.streaming, event) };
      });
      if (event.type === 'turn/end' || event.type === 'turn/start' || event.type === 'session/title') {
        void refreshList();
        // The host reports a turn as running until just after its turn/end; look again shortly.
        if (event.type === 'turn/end') setTimeout(() => void refreshList(), 400);
      }
    };
    load().then(
      (observation) => {
        if (stopped) return;
        setView({ id, observation, events: [...observation.events], repairedFrom: repaired.current.get(id), streaming: undefined });
        stop = followEvents(id, observation.events.length, onEvent, (delta) => {
          setView((previous) =>
            previous?.id === id ? { ...previous, streaming: withDelta(previous.streaming, delta, previous.events) } : previous,
          );
        });
      },
      (error: unknown) => {
        if (!stopped) setLoadError(describeError(error));
      },
    );
    return () => {
      stopped = true;
      stop();
    };
  }, [currentId, reloads, reload, refreshList, notify]);

  const view = loaded?.id === currentId ? loaded : undefined;
  return { loaded: view, loadError, streaming: view?.streaming };
}
