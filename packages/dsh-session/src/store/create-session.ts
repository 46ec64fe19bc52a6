/** @module `SessionStore.create`: a new session persisted atomically with its title and config. */
import { randomUUID } from 'node:crypto';
import { CURRENT_FORMAT_VERSION, type SessionConfig, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { titleText, type PrintableTitle } from './check-title.js';
import { configData } from './config-data.js';
import { assertSessionId } from '../session-id.js';
import type { Session } from '../session/session.js';
import { assertStoreOpen, persistNew, reserveNewId, standaloneEvent, type StoreContext } from './store-context.js';

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
    return await persistNew(context, { header, seed: { kind: 'new', events }, validatedCount: 0, formatVersion: CURRENT_FORMAT_VERSION });
  } catch (error) {
    context.reserved.delete(id);
    throw error;
  }
}
