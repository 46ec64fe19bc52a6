/** `SessionStore.watch`, present when the backend can watch sessions written elsewhere (PostgreSQL). */
import type { SessionEvent } from 'dsh-codec';
import { deepFreeze } from './deep-freeze.js';
import type { SessionBackend } from './session-backend.js';
import { assertSessionId } from './session-id.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

/** @internal The backend's watch behind a valid id and an open store, handing out frozen events. */
export function watchSession(
  context: StoreContext,
  watch: NonNullable<SessionBackend['watch']>,
  id: string,
  fromSeq: number,
  listener: (events: readonly SessionEvent[]) => void,
): Promise<() => void> {
  assertStoreOpen(context);
  assertSessionId(id);
  return watch.call(context.backend, id, fromSeq, (events) => {
    for (const event of events) deepFreeze(event);
    listener(events);
  });
}
