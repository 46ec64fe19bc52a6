/** @module `SessionStore.observe` and `inspect`: one read, one decode, one immutable value (SPEC §12). */
import type { SessionEvent } from 'dsh-codec';
import { LOG_SNAPSHOT } from '../session/session.js';
import type { InheritedRecords, StoredRead } from '../fast-backend.js';
import type { Provenance } from '../provenance.js';
import type { EventSource } from '../sources/event-source.js';
import { makeObservation, type SessionObservation } from './session-observation.js';
import { assertSessionId } from '../session-id.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

/** A child's first `count` events of `source`: the events, and the provenance that lets the backend copy or refer to them. */
function inheritedOf(source: EventSource, count: number, provenance: Provenance | undefined): InheritedRecords {
  const events = (): readonly SessionEvent[] => source.slice(count);
  return provenance === undefined ? { count, events } : { count, events, provenance };
}

/** A live session of this store, observed from memory: its log as it is now, copied only if someone reads `events`. */
export function observeLive(context: StoreContext, id: string): SessionObservation | undefined {
  const session = context.live.get(id);
  if (session === undefined) return undefined;
  const source = session[LOG_SNAPSHOT]();
  const { backend } = context;
  return makeObservation(
    { sessionId: id, header: session.header, formatVersion: session.formatVersion, needsRepair: false, live: true },
    context.origin,
    // Every event of a live log was validated on append; its durable lines may be copied from where its writer holds them.
    { source, validated: source.length, copy: (count) => inheritedOf(source, count, backend.heldProvenance?.(id)) },
  );
}

/** A session as stored now (without a lease: it may be growing elsewhere), observed as its backend read it. Never writes. */
export async function observeStored(context: StoreContext, id: string, read?: () => Promise<StoredRead>): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  const { log, provenance } = await (read ?? (() => context.backend.read(id)))();
  const { header, formatVersion, needsRepair, tornTail, source, validated } = log.observe(id);
  return makeObservation({ sessionId: id, header, formatVersion, needsRepair, live: false, tornTail }, context.origin, {
    source,
    validated,
    copy: (count) => inheritedOf(source, count, provenance),
  });
}

/** `observe(id)`: from memory when this store holds the session open, else from storage. */
export async function observeSession(context: StoreContext, id: string): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  return observeLive(context, id) ?? observeStored(context, id);
}

/**
 * The source of a fork by id at `atSeq`: from memory when this store holds it open, else through the
 * backend's read for a fork when it has one (a window of the log, the rest loaded on first read), else stored.
 */
export async function observeForFork(context: StoreContext, id: string, atSeq: number | 'latest-closed-turn'): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  const { backend } = context;
  const live = observeLive(context, id);
  if (live !== undefined) return live;
  return observeStored(
    context,
    id,
    backend.readForFork === undefined ? undefined : () => (backend.readForFork as NonNullable<typeof backend.readForFork>)(id, atSeq),
  );
}
