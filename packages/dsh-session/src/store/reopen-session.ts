/**
 * @module `SessionStore.reopen`: a Session this store closed, opened again under the lease. When its
 * writer released the log cleanly and the backend finds it exactly as it was left (JSONL: a stat and
 * one small read, `jsonl-resume-point.ts`), the new Session continues from the closed one's events in
 * memory: the log is not read again, so the cost does not grow with the history (SPEC §24). Otherwise
 * (another writer came in between, a backend that cannot tell) the log is read as `open(id)` reads it.
 */
import { assertSessionId } from '../session-id.js';
import { LOG_SNAPSHOT, RESUME_POINT, type Session } from '../session/session.js';
import { openSession, restoredSession, restoreStored, withLease } from './open-session.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

/** Closes `previous` if it is open (flushing), then opens its session again — from `previous`'s log when nothing changed it. */
export async function reopenSession(context: StoreContext, previous: Session): Promise<Session> {
  assertStoreOpen(context);
  const id = previous.id;
  assertSessionId(id);
  await previous.close();
  const point = await previous[RESUME_POINT]();
  if (point === undefined) return openSession(context, id);
  return withLease(context, id, async (writer) => {
    if (writer.resume === undefined || !(await writer.resume(point))) return restoreStored(context, id, writer);
    // The closed Session's events are exactly what the log holds, every one validated: taken as they are.
    const session = restoredSession(context, id, writer, { header: previous.header, source: previous[LOG_SNAPSHOT]() });
    await session.flush();
    return session;
  });
}
