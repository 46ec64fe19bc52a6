/**
 * @module session-registry
 * The registry of live sessions: publishing an open session (an `Agent` over it, its events out to
 * telemetry and watchers), opening a cold one once however many callers ask, appending a title
 * between turns, and releasing; each new live session takes a slot of `live-slots.ts` first. Every
 * function takes the host's context.
 */
import { Agent } from 'dsh-agent';
import { checkTitle, SessionError, type Session } from 'dsh-session';
import { emitEvent } from './emit-event.js';
import { HostError } from '../host-error.js';
import type { HostContext, LiveEntry } from '../host-context.js';
import { takeLiveSlot, watchIdleSessions } from './live-slots.js';

/** Refuses every operation once the host is closed. @internal */
export function assertOpen(context: HostContext): void {
  if (context.closed) throw new HostError('INVALID_OPTION', 'This host is closed: create a new host to use the store again.');
}

/** Starts an agent over an open session; its lifecycle's events so far go out first, then each append. @internal */
export async function publish(context: HostContext, session: Session): Promise<LiveEntry> {
  const { options, model, live } = context;
  let agent: Agent;
  try {
    agent = new Agent({
      session,
      model,
      ...(options.tools === undefined ? {} : { tools: options.tools }),
      ...(options.system === undefined ? {} : { system: options.system }),
      ...(options.maxSteps === undefined ? {} : { maxSteps: options.maxSteps }),
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.resolveModel === undefined ? {} : { resolveModel: options.resolveModel }),
      ...(options.checkpoints === undefined ? {} : { checkpoints: options.checkpoints }),
    });
  } catch (error) {
    await session.close();
    throw error;
  }
  // Synchronous from here on: no append can slip between the backlog and the subscription.
  for (const event of session.eventsFrom(session.firstLifecycleSeq)) emitEvent(context, session.id, event);
  const unsubscribeEvents = session.subscribe((event) => {
    entry.usedAt = Date.now();
    emitEvent(context, session.id, event);
  });
  const unsubscribeDeltas = agent.subscribeDeltas((delta) => {
    for (const listener of context.deltaListeners.get(session.id) ?? []) listener(delta);
  });
  const unsubscribe = () => {
    unsubscribeEvents();
    unsubscribeDeltas();
  };
  const entry: LiveEntry = { session, agent, unsubscribe, usedAt: Date.now() };
  live.set(session.id, entry);
  watchIdleSessions(context, (id) => release(context, id));
  return entry;
}

/**
 * Makes the session `open` returns live in a slot of its own (`TOO_MANY_SESSIONS` when every slot runs
 * a turn), or in `slot` taken before: `store.open`, `create` or `fork`, run only once the slot is taken. @internal
 */
export async function openLive(context: HostContext, open: () => Promise<Session>, slot?: () => void): Promise<LiveEntry> {
  const giveBack = slot ?? (await takeLiveSlot(context, (id) => release(context, id)));
  try {
    return await publish(context, await open());
  } finally {
    giveBack();
  }
}

/** Takes `count` live slots at once: all of them, or none and `TOO_MANY_SESSIONS`. @internal */
export async function takeLiveSlots(context: HostContext, count: number): Promise<(() => void)[]> {
  const slots: (() => void)[] = [];
  try {
    while (slots.length < count) slots.push(await takeLiveSlot(context, (id) => release(context, id)));
  } catch (error) {
    for (const giveBack of slots) giveBack();
    throw error;
  }
  return slots;
}

/**
 * The live entry of `id`, opening (and repairing) a cold session once for all concurrent callers. An
 * entry whose agent stopped (its lease lost) is released first and the session opened again. @internal
 */
export async function liveEntry(context: HostContext, id: string): Promise<LiveEntry> {
  const { live, opening } = context;
  assertOpen(context);
  const existing = live.get(id);
  if (existing !== undefined && !existing.agent.stopped) {
    existing.usedAt = Date.now();
    return existing;
  }
  let pending = opening.get(id);
  if (pending === undefined) {
    if (existing !== undefined) live.delete(id);
    pending = (async () => {
      if (existing !== undefined) await discard(context, existing);
      return openAndPublish(context, id);
    })().finally(() => opening.delete(id));
    opening.set(id, pending);
  }
  return pending;
}

/** Lets go of a stopped entry: whatever its session still holds is released; a failure is only logged. */
async function discard(context: HostContext, entry: LiveEntry): Promise<void> {
  entry.unsubscribe();
  await entry.agent.close();
  await entry.session.close().catch((error: unknown) => {
    // A lost lease is why it stopped: the close gave back what it held, and nothing more can be written.
    if (!SessionError.is(error) || error.code !== 'SESSION_BUSY')
      context.logger.error(`dsh: closing stopped session ${entry.session.id} failed`, error);
  });
}

/** `store.open` (crash repair), remembering the version the file was read from before it is rewritten. @internal */
export async function openAndPublish(context: HostContext, id: string): Promise<LiveEntry> {
  const { store, readFrom } = context;
  // Closed a moment ago (idle, evicted, released): its lease is given back before the store takes it again.
  await context.closingLive.get(id)?.catch(() => undefined);
  return openLive(context, async () => {
    // One read: the store reports the version it decoded the log from.
    const session = await store.open(id);
    if (!readFrom.has(id)) readFrom.set(id, session.formatVersion);
    return session;
  });
}

/** Appends `session/title` between turns and waits until it is durable; `INVALID_TITLE` for control characters. @internal */
export async function appendTitle(entry: LiveEntry, title: string): Promise<void> {
  checkTitle(title);
  await entry.agent.betweenTurns(async () => {
    entry.session.append('session/title', { title });
    await entry.session.flush();
  });
}

/**
 * Closes a live session (agent, then session: flushed, lease released); a cold one is left alone. Until
 * it is closed, an open of the same id waits for it (`closingLive`). @internal
 */
export async function release(context: HostContext, id: string): Promise<void> {
  const { live, closingLive } = context;
  const entry = live.get(id);
  if (entry === undefined) return closingLive.get(id);
  live.delete(id);
  const closing = (async () => {
    entry.unsubscribe();
    await entry.agent.close();
    await entry.session.close();
  })();
  const tracked = closing.finally(() => {
    if (closingLive.get(id) === tracked) closingLive.delete(id);
  });
  tracked.catch(() => undefined);
  closingLive.set(id, tracked);
  return closing;
}
