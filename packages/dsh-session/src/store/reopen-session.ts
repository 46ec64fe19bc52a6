/**
 * @module `SessionStore.reopen`: a Session this store closed, opened again under the lease. When its
 * writer released the log cleanly and the backend finds it exactly as it was left (JSONL: a stat and
 * one small read, `jsonl-resume-point.ts`), the new Session continues from the closed one's events in
 * memory: the log is not read again, so the cost does not grow with the history (SPEC §24). When
 * another writer only appended since (JSONL: its verified stamp covers the bytes before, unchanged, and
 * its own), only those lines are read and decoded. Otherwise (a rewrite, a seal, a crash, a backend
 * that cannot tell) the log is read as `open(id)` reads it.
 */
import type { SessionEvent } from 'dsh-codec';
import type { ResumedLog } from '../fast-backend.js';
import { SessionError } from '../session-error.js';
import { readEvents, type EventSource } from '../sources/event-source.js';
import { joinedSource } from '../sources/joined-source.js';
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
    const resumed = writer.resume === undefined ? false : await writer.resume(point);
    const source = resumed === false ? undefined : continued(previous[LOG_SNAPSHOT](), resumed);
    if (source === undefined) return restoreStored(context, id, writer);
    // The closed Session's events are exactly what the log holds, every one validated: taken as they are.
    const session = restoredSession(context, id, writer, { header: previous.header, source });
    await session.flush();
    return session;
  });
}

/**
 * The closed Session's log followed by the lines another writer appended since (each decoded here and
 * checked to continue it, seq by seq); undefined when they do not (then the log is read whole).
 */
function continued(snapshot: EventSource, resumed: ResumedLog): EventSource | undefined {
  const { appended } = resumed;
  if (appended === undefined) return snapshot;
  if (appended.first !== snapshot.length) return undefined;
  let events: SessionEvent[];
  try {
    events = readEvents(appended.source, 0, appended.source.length);
  } catch (error) {
    if (SessionError.is(error) && error.code === 'CORRUPT') return undefined;
    throw error;
  }
  return joinedSource(snapshot, snapshot.length, events);
}
