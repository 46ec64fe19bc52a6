/** @module `SessionStore.open`: resume under the single-writer lease, closing an interrupted turn (SPEC §6). */
import { closeOpenTail } from '../close-open-tail.js';
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import type { FastWriter, TrustedSource } from '../fast-backend.js';
import { latestTurnOf } from '../sources/event-source.js';
import { assertSessionId } from '../session-id.js';
import { Session } from '../session/session.js';
import { assertStoreOpen, forgetOnRelease, heldHereError, type StoreContext } from './store-context.js';
import { resumingSink } from './store-sinks.js';

/**
 * Takes the lease, reads and decodes the log once, persists the repair closers and the new marker,
 * and returns the Session (its `formatVersion` is the version the log was read from). A failure at
 * any step releases the lease and the reservation.
 */
export async function openSession(context: StoreContext, id: string): Promise<Session> {
  assertStoreOpen(context);
  assertSessionId(id);
  return withLease(context, id, (writer) => restoreStored(context, id, writer));
}

/**
 * Takes session `id`'s lease (reserving the id meanwhile) and makes its Session with `restore`, which
 * flushes what the open writes before it resolves; a failure releases the lease and the reservation.
 */
export async function withLease(context: StoreContext, id: string, restore: (writer: FastWriter) => Promise<Session>): Promise<Session> {
  if (context.live.has(id) || context.reserved.has(id)) throw heldHereError(context, id);
  context.reserved.add(id);
  let writer: FastWriter | undefined;
  let session: Session;
  try {
    writer = await context.backend.acquire(id);
    session = await restore(writer);
  } catch (error) {
    context.reserved.delete(id);
    await writer?.release();
    throw error;
  }
  return adopted(context, id, session);
}

/** The Session of the log `writer` holds, read and decoded once, its repair closers and marker durable. */
export async function restoreStored(context: StoreContext, id: string, writer: FastWriter): Promise<Session> {
  const { log } = await writer.read();
  const trusted = log.trustedSource?.(id);
  if (trusted !== undefined) {
    // Vouched-for current lines: taken as they are, decoded only where read (SPEC §24: resume holds
    // what its reader needs, not every event decoded beside the bytes).
    writer.markValidated?.();
    const session = restoredSession(context, id, writer, trusted);
    await session.flush();
    return session;
  }
  const decoded = log.decode(id);
  // Every complete line was validated: the writer may stamp what it leaves as verified.
  writer.markValidated?.();
  // An older version or legacy line endings: the first write rewrites the whole file (with a backup).
  const transition = decoded.rewrite;
  if (decoded.tornTail !== undefined && !transition) await writer.discardTornTail(decoded.tornTail.line);
  const closers = closeOpenTail(decoded.events, 'interrupted');
  const stored = decoded.events.length;
  const seed = decoded.events.concat(closers);
  const session: Session = new Session({
    header: decoded.header,
    seed: { kind: 'restored', events: seed, storedLength: stored },
    durableCount: stored,
    // What the codec decoded, or a backend vouched for as validated: the Session only advances past it.
    validatedCount: decoded.validated,
    formatVersion: decoded.sourceVersion,
    sink: resumingSink(
      writer,
      decoded.header,
      transition,
      forgetOnRelease(context, id, () => session),
    ),
    now: context.now,
  });
  // Repair closers and the new marker are durable before the session is handed out.
  await session.flush();
  return session;
}

/** A trusted stored log as a Session: its events behind the source, the repair closers of its latest turn after them. */
export function restoredSession(context: StoreContext, id: string, writer: FastWriter, trusted: TrustedSource): Session {
  const { header, source } = trusted;
  const closers = closeOpenTail(latestTurnOf(source, source.length), 'interrupted');
  const session: Session = new Session({
    header,
    seed: { kind: 'restored-from', stored: source, closers },
    durableCount: source.length,
    validatedCount: source.length,
    formatVersion: CURRENT_FORMAT_VERSION,
    sink: resumingSink(
      writer,
      header,
      false,
      forgetOnRelease(context, id, () => session),
    ),
    now: context.now,
  });
  return session;
}

/** `session`, opened, handed from the reservation to the live sessions. */
function adopted(context: StoreContext, id: string, session: Session): Session {
  context.reserved.delete(id);
  context.live.set(id, session);
  context.openedAt.set(id, context.now());
  context.summaries.delete(id);
  return session;
}
