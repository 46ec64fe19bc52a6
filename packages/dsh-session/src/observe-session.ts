/** `SessionStore.observe` and `inspect`: one read, one decode, one immutable value (SPEC §12). */
import { CURRENT_FORMAT_VERSION, type SessionEvent } from 'dsh-codec';
import { closeOpenTail } from './close-open-tail.js';
import { decodeStored } from './decode-stored.js';
import { deepFreeze } from './deep-freeze.js';
import type { InheritedRecords, StoredLog } from './session-backend.js';
import { makeObservation, type ObservationProvenance, type SessionObservation } from './session-observation.js';
import { assertSessionId } from './session-id.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';

const NOTHING_TO_COPY: ObservationProvenance['copy'] = () => undefined;

/**
 * The JSONL lines of the first `count` events of a log's text (after its header line), when the log
 * is in a format whose event lines are current records; undefined when it has fewer complete lines or
 * any of them ends in CR (legacy line endings are re-encoded, never copied). `source` is the read's
 * `StoredLog.source`, so a backend can refer to the stored prefix instead of copying it.
 */
function inheritedLines(text: string, count: number, source: string | undefined): InheritedRecords | undefined {
  const start = text.indexOf('\n') + 1;
  if (start === 0) return undefined;
  let end = start;
  for (let line = 0; line < count; line++) {
    const newline = text.indexOf('\n', end);
    if (newline === -1) return undefined;
    end = newline + 1;
  }
  const lines = text.slice(start, end);
  if (lines.includes('\r')) return undefined;
  return { kind: 'jsonl', count, text: lines, ...(source === undefined ? {} : { source }) };
}

/** A live session of this store, observed from memory: a frozen snapshot of its log. */
export function observeLive(context: StoreContext, id: string): SessionObservation | undefined {
  const session = context.live.get(id);
  if (session === undefined) return undefined;
  const events = Object.freeze(session.events.slice());
  return makeObservation(
    { sessionId: id, header: session.header, events, formatVersion: session.formatVersion, needsRepair: false, live: true },
    context.origin,
    // Every event of a live log was validated on append; its durable lines may be copied from its file.
    { validated: events.length, copy: (count) => ({ kind: 'stored', sourceId: id, count }) },
  );
}

/** A session as stored now (without a lease: it may be growing elsewhere), decoded once. Never writes. */
export async function observeStored(context: StoreContext, id: string): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  const stored: StoredLog = await context.backend.read(id);
  const decoded = decodeStored(id, stored);
  for (const event of decoded.events) deepFreeze(event);
  // The decoded array is this call's own (fresh from JSONL, or the backend's snapshot): freeze it, no copy.
  const events: readonly SessionEvent[] = Object.freeze(decoded.events);
  const needsRepair = decoded.tornTail !== undefined || closeOpenTail(events, 'interrupted').length > 0;
  let provenance: ObservationProvenance;
  if (stored.kind === 'jsonl') {
    // The codec validated every event it returned; from V4 on, stored event lines are current records.
    const copyable = decoded.sourceVersion >= 4 && decoded.sourceVersion <= CURRENT_FORMAT_VERSION && decoded.lineEndings === undefined;
    const text = copyable ? stored.text : undefined;
    provenance = { validated: events.length, copy: text === undefined ? NOTHING_TO_COPY : (count) => inheritedLines(text, count, stored.source) };
  } else {
    const { source } = stored;
    provenance = {
      validated: stored.validated === true ? events.length : 0,
      copy: source === undefined ? NOTHING_TO_COPY : (count) => ({ kind: 'source', count, source }),
    };
  }
  return makeObservation(
    { sessionId: id, header: decoded.header, events, formatVersion: decoded.sourceVersion, needsRepair, live: false, tornTail: decoded.tornTail },
    context.origin,
    provenance,
  );
}

/** `observe(id)`: from memory when this store holds the session open, else from storage. */
export async function observeSession(context: StoreContext, id: string): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  return observeLive(context, id) ?? observeStored(context, id);
}
