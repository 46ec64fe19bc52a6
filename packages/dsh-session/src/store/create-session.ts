/** @module `SessionStore.create`: a new session persisted atomically with its title and config. */
import { randomUUID } from 'node:crypto';
import { CURRENT_FORMAT_VERSION, type SessionConfig, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { titleText, type PrintableTitle } from './check-title.js';
import { configData } from './config-data.js';
import { assertSessionId } from '../session-id.js';
import { Session } from '../session/session.js';
import { assertStoreOpen, forgetOnRelease, persistNew, reserveNewId, standaloneEvent, type StoreContext } from './store-context.js';
import { creatingSink } from './store-sinks.js';

/** Options of `SessionStore.create`. */
export type CreateSessionOptions = {
  id?: string;
  /** A string is checked here (`INVALID_TITLE`); a `PrintableTitle` was checked where it entered. */
  title?: string | PrintableTitle;
  config?: SessionConfig;
};

/** @internal Creates and persists a session; `SESSION_EXISTS` for a taken id; a failure releases the id. */
export async function createSession(context: StoreContext, options: CreateSessionOptions): Promise<Session> {
  assertStoreOpen(context);
  const id = options.id ?? randomUUID();
  assertSessionId(id);
  const title = options.title === undefined ? undefined : titleText(options.title);
  await reserveNewId(context, id, options.id === undefined ? 'generated' : 'named');
  let session: Session | undefined;
  try {
    const time = context.now();
    const header: SessionHeader = {
      format: 'dsh-session',
      version: CURRENT_FORMAT_VERSION,
      id,
      createdAt: time,
      ...(options.config?.cwd === undefined ? {} : { cwd: options.config.cwd }),
      inheritedEventCount: 0,
    };
    const events: SessionEvent[] = [];
    if (title !== undefined) events.push(standaloneEvent(events.length, time, 'session/title', { title }));
    if (options.config !== undefined) events.push(standaloneEvent(events.length, time, 'session/config', configData(options.config)));
    session = new Session({
      header,
      seed: { kind: 'new', events },
      durableCount: 0,
      validatedCount: 0,
      formatVersion: CURRENT_FORMAT_VERSION,
      sink: creatingSink(
        context.backend,
        id,
        header,
        forgetOnRelease(context, id, () => session),
      ),
      now: context.now,
    });
  } catch (error) {
    context.reserved.delete(id);
    throw error;
  }
  return persistNew(context, session);
}
