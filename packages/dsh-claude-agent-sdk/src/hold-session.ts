/**
 * @module hold-session
 * How this process writes a key while other processes may write it too: dsh's single-writer lease.
 * A session is opened (taking the lease) for an append, kept open while appends keep coming, and
 * released once none came for `holdMs`, or right after an append once held for `maxHoldMs`. Opening
 * a session another process holds (`SESSION_BUSY`) is retried with backoff until the lease frees,
 * for at most `busyTimeoutMs`. So batches of two processes never interleave and none is lost. A
 * released session is kept (the latest `RELEASED_KEPT`): the next hold reopens it with `store.reopen`
 * and reads only the entries added since, so a long-running writer does not pay for its history
 * every `maxHoldMs`.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { SessionError, type Session } from 'dsh-session';
import { RELEASED_KEPT, serialized, type ClaudeStoreContext, type HeldSession } from './claude-store-context.js';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionKey } from './claude-types.js';
import { readMirror } from './mirror-log.js';
import { sameKey } from './session-key.js';
import { nextTitle } from './transcript-title.js';

/** Refuses a stored session that records another key (or none) with `KEY_MISMATCH`. */
export function assertRecordedKey(id: string, recorded: SessionKey | undefined, key: SessionKey): void {
  if (recorded !== undefined && sameKey(recorded, key)) return;
  throw new ClaudeStoreError(
    'KEY_MISMATCH',
    `dsh session ${id} records the key ${JSON.stringify(recorded ?? null)}, expected ${JSON.stringify(key)}; it is not this package's transcript of that key, so it is left alone.`,
  );
}

/** Retries `attempt` while it fails with `SESSION_BUSY`, with backoff, for at most `busyTimeoutMs`. */
export async function whenLeaseFree<T>(context: ClaudeStoreContext, id: string, attempt: () => Promise<T>): Promise<T> {
  const started = Date.now();
  for (let delay = 5; ; delay = Math.min(delay * 2, 100)) {
    try {
      return await attempt();
    } catch (error) {
      if (!(SessionError.is(error) && error.code === 'SESSION_BUSY')) throw error;
      const waited = Date.now() - started;
      if (waited >= context.busyTimeoutMs) {
        throw new ClaudeStoreError(
          'SESSION_BUSY',
          `dsh session ${id} stayed held by another writer for ${String(waited)} ms (busyTimeoutMs ${String(context.busyTimeoutMs)}): ${error.message}`,
          {
            cause: error,
          },
        );
      }
      // Jitter keeps two waiting processes from retrying in lockstep.
      await sleep(delay + Math.floor(Math.random() * delay));
    }
  }
}

/** Closes a held session (flushing what it has) and keeps it, with what its appends knew, for a cheap reopen. */
export async function release(context: ClaudeStoreContext, id: string): Promise<void> {
  const held = context.held.get(id);
  if (held === undefined) return;
  context.held.delete(id);
  if (held.timer !== undefined) clearTimeout(held.timer);
  await held.session.close();
  context.released.delete(id);
  context.released.set(id, held);
  // The oldest first: a Map iterates in insertion order.
  for (const oldest of context.released.keys()) {
    if (context.released.size <= RELEASED_KEPT) break;
    context.released.delete(oldest);
  }
}

/** Whether `later` is `earlier`'s log continued: the same session created at the same time, its events kept. */
function continues(earlier: Session, later: Session): boolean {
  if (later.header.createdAt !== earlier.header.createdAt || later.nextSeq < earlier.nextSeq) return false;
  const seq = earlier.nextSeq - 1;
  if (seq < 0) return true;
  const [before] = earlier.eventsFrom(seq, seq + 1);
  const [after] = later.eventsFrom(seq, seq + 1);
  return (
    before !== undefined &&
    after !== undefined &&
    (before === after ||
      (before.type === after.type && before.time === after.time && JSON.stringify(before.data) === JSON.stringify(after.data)))
  );
}

/**
 * `previous` (released by this process) reopened under the lease, with what its appends knew brought
 * up to date from the events added since — the history is not read again (`store.reopen`: not even
 * the log when nobody wrote it meanwhile). Undefined when the session is gone.
 */
async function reopenReleased(context: ClaudeStoreContext, id: string, previous: HeldSession): Promise<HeldSession | undefined> {
  const session = await whenLeaseFree(context, id, async () => {
    try {
      return await context.store.reopen(previous.session);
    } catch (error) {
      if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return undefined;
      throw error;
    }
  });
  if (session === undefined) return undefined;
  if (!continues(previous.session, session)) return adopt(context, id, session, previous.key);
  const added = readMirror(session.eventsFrom(previous.session.nextSeq)).entries;
  for (const entry of added) if (entry.uuid !== undefined) previous.uuids.add(entry.uuid);
  const held: HeldSession = { ...previous, session, title: nextTitle(previous.title, added), since: Date.now(), timer: undefined };
  context.held.set(id, held);
  return held;
}

/** A session opened under the lease as held: its key checked, its uuids and title read from every event. */
async function adopt(context: ClaudeStoreContext, id: string, session: Session, key: SessionKey): Promise<HeldSession> {
  const view = readMirror(session.events);
  try {
    assertRecordedKey(id, view.key, key);
  } catch (error) {
    await session.close();
    throw error;
  }
  context.keys.set(id, key);
  const uuids = new Set<string>();
  for (const entry of view.entries) if (entry.uuid !== undefined) uuids.add(entry.uuid);
  const held: HeldSession = { session, key, uuids, title: nextTitle(undefined, view.entries), since: Date.now(), timer: undefined };
  context.held.set(id, held);
  return held;
}

/** The held session of `id`, opening it under the lease (waiting for another holder); undefined when none is stored. */
export async function holdSession(context: ClaudeStoreContext, id: string, key: SessionKey): Promise<HeldSession | undefined> {
  const current = context.held.get(id);
  if (current !== undefined && !current.session.closed) {
    if (current.timer !== undefined) clearTimeout(current.timer);
    current.timer = undefined;
    return current;
  }
  context.held.delete(id);
  const previous = context.released.get(id);
  if (previous !== undefined && sameKey(previous.key, key)) {
    context.released.delete(id);
    return reopenReleased(context, id, previous);
  }
  // A session not yet read here is checked read-only first: one recording another key is left
  // alone (opening it would already append a lifecycle marker).
  if (!context.keys.has(id)) {
    let recorded;
    try {
      recorded = readMirror((await context.store.observe(id)).events).key;
    } catch (error) {
      if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return undefined;
      throw error;
    }
    assertRecordedKey(id, recorded, key);
    context.keys.set(id, key);
  }
  const session = await whenLeaseFree(context, id, async () => {
    try {
      return await context.store.open(id);
    } catch (error) {
      if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return undefined;
      throw error;
    }
  });
  if (session === undefined) return undefined;
  return adopt(context, id, session, key);
}

/** After an operation: release now (held past `maxHoldMs`, or `holdMs` 0), else after `holdMs` without another. */
export async function scheduleRelease(context: ClaudeStoreContext, id: string): Promise<void> {
  const held = context.held.get(id);
  if (held === undefined) return;
  if (context.holdMs <= 0 || Date.now() - held.since >= context.maxHoldMs) {
    await release(context, id);
    return;
  }
  const timer = setTimeout(() => {
    // Queued behind any operation under way; a later operation that took the hold re-arms its own timer.
    void serialized(context, id, async () => {
      if (context.held.get(id) === held && held.timer === timer) await release(context, id);
    }).catch(() => undefined);
  }, context.holdMs);
  // A hold never keeps the process alive: everything appended is durable already.
  timer.unref();
  held.timer = timer;
}
