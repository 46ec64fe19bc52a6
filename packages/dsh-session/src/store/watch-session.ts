/** `SessionStore.watch`, present when the backend can watch sessions written elsewhere (PostgreSQL). */
import type { SessionEvent } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import { assertSessionId } from '../session-id.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

/** @internal The backend's watch behind a valid id and an open store, handing out frozen events. */
export async function watchSession(
  context: StoreContext,
  id: string,
  fromSeq: number,
  listener: (events: readonly SessionEvent[]) => void,
): Promise<() => void> {
  assertStoreOpen(context);
  assertSessionId(id);
  const stop = await context.backend.watch?.(id, fromSeq, (events) => {
    for (const event of events) deepFreeze(event);
    listener(events);
  });
  return stop ?? (() => undefined);
}
