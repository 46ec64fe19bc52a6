/** `SessionStore.observe` and `inspect`: one read, one decode, one immutable value (SPEC §12). */
import { CURRENT_FORMAT_VERSION, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { assertHeaderNames, decodeStored } from './decode-stored.js';
import { deepFreeze } from '../deep-freeze.js';
import { arraySource, latestTurnOf } from '../sources/event-source.js';
import { holdsCurrentRecords } from '../jsonl/jsonl-log-bytes.js';
import { LineEnds } from '../jsonl/line-ends.js';
import type { InheritedRecords, StoredRead } from '../fast-backend.js';
import { makeObservation, type ObservationProvenance, type SessionObservation } from './session-observation.js';
import { assertSessionId } from '../session-id.js';
import { LOG_SNAPSHOT } from '../session/session.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';
import { validatedLinesSource } from '../sources/validated-lines.js';
import { verifiedLinesSource } from '../sources/verified-lines.js';

/**
 * The JSONL lines of the first `count` events of a log's text (after its header line), when the log
 * is in a format whose event lines are current records; undefined when it has fewer complete lines or
 * any of them ends in CR (legacy line endings are re-encoded, never copied).
 */
function inheritedLines(text: string, count: number): Buffer | undefined {
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
  return Buffer.from(lines, 'utf8');
}

/** A live session of this store, observed from memory: its log as it is now, copied only if someone reads `events`. */
export function observeLive(context: StoreContext, id: string): SessionObservation | undefined {
  const session = context.live.get(id);
  if (session === undefined) return undefined;
  const source = session[LOG_SNAPSHOT]();
  return makeObservation(
    { sessionId: id, header: session.header, formatVersion: session.formatVersion, needsRepair: false, live: true },
    context.origin,
    // Every event of a live log was validated on append; its durable lines may be copied from its file.
    { source, validated: source.length, copy: (count) => ({ kind: 'stored', sourceId: id, count, events: () => source.slice(count) }) },
  );
}

/**
 * A log whose bytes this store verified (stamped by its writer, unchanged since): only the header is
 * decoded here, and the latest turn (to learn whether it needs repair); the events are read line by
 * line when someone reads them. Undefined when the header is not the current version (then the log is
 * decoded in full).
 */
function observeVerified(context: StoreContext, id: string, bytes: Buffer): SessionObservation | undefined {
  const ends = new LineEnds();
  ends.scan(bytes, 0);
  if (ends.length === 0) return undefined;
  // The stamp vouches for the header line as for the rest: validated when it was written.
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8', 0, ends.at(0) - 1));
  } catch {
    return undefined;
  }
  const fields = (typeof parsed === 'object' && parsed !== null ? parsed : {}) as Partial<Record<keyof SessionHeader, unknown>>;
  if (fields.format !== 'dsh-session' || fields.version !== CURRENT_FORMAT_VERSION || fields.id !== id) return undefined;
  const header = deepFreeze(parsed as SessionHeader);
  const sourceVersion = CURRENT_FORMAT_VERSION;
  const source = verifiedLinesSource(id, bytes, ends);
  const count = source.length;
  const needsRepair = closeOpenTail(latestTurnOf(source, count), 'interrupted').length > 0;
  return makeObservation({ sessionId: id, header, formatVersion: sourceVersion, needsRepair, live: false }, context.origin, {
    source,
    validated: count,
    copy: (n) => ({ kind: 'jsonl', count: n, bytes: bytes.subarray(ends.at(0), ends.at(n)), events: () => source.slice(n) }),
  });
}

/**
 * A backend's validated lines: only the latest turn is parsed here (to learn whether it needs repair);
 * the events are parsed one by one when someone reads them. A fork child refers to the stored prefix
 * the lines came from when the backend named it, else it is written from the lines as they are.
 */
function observeValidatedLines(context: StoreContext, id: string, stored: StoredRead & { kind: 'validated-lines' }): SessionObservation {
  const { header, lines, count, source: origin } = stored;
  assertHeaderNames(id, header);
  const source = validatedLinesSource(id, lines, count);
  const needsRepair = closeOpenTail(latestTurnOf(source, count), 'interrupted').length > 0;
  const events = (n: number) => (): readonly SessionEvent[] => source.slice(n);
  return makeObservation(
    { sessionId: id, header: deepFreeze(header), formatVersion: CURRENT_FORMAT_VERSION, needsRepair, live: false },
    context.origin,
    {
      source,
      validated: count,
      copy: (n) =>
        origin === undefined
          ? { kind: 'jsonl', count: n, bytes: Buffer.from(lines.slice(0, n).join(''), 'utf8'), events: events(n) }
          : { kind: 'source', count: n, source: origin, events: events(n) },
    },
  );
}

/** A session as stored now (without a lease: it may be growing elsewhere), decoded once. Never writes. */
export async function observeStored(context: StoreContext, id: string): Promise<SessionObservation> {
  assertStoreOpen(context);
  assertSessionId(id);
  let stored: StoredRead = await context.backend.read(id);
  if (stored.kind === 'verified-jsonl') {
    const verified = observeVerified(context, id, stored.bytes);
    if (verified !== undefined) return verified;
    stored = { kind: 'jsonl', text: stored.bytes.toString('utf8') };
  }
  if (stored.kind === 'validated-lines') return observeValidatedLines(context, id, stored);
  const decoded = decodeStored(id, stored);
  for (const event of decoded.events) deepFreeze(event);
  // The decoded array is this call's own (fresh from JSONL, or the backend's snapshot): freeze it, no copy.
  const events: readonly SessionEvent[] = Object.freeze(decoded.events);
  const source = arraySource(events);
  const needsRepair = decoded.tornTail !== undefined || closeOpenTail(events, 'interrupted').length > 0;
  const asEvents = (count: number): InheritedRecords => ({ kind: 'events', count, events: () => source.slice(count) });
  let provenance: ObservationProvenance;
  if (stored.kind === 'jsonl') {
    // The codec validated every event it returned; its lines are copied when they are current records.
    const copyable = holdsCurrentRecords(decoded.sourceVersion) && decoded.lineEndings === undefined;
    const { text } = stored;
    provenance = {
      source,
      validated: events.length,
      copy: (count) => {
        const bytes = copyable ? inheritedLines(text, count) : undefined;
        return bytes === undefined ? asEvents(count) : { kind: 'jsonl', count, bytes, events: () => source.slice(count) };
      },
    };
  } else {
    const origin = stored.source;
    provenance = {
      source,
      validated: stored.validated === true ? events.length : 0,
      copy: (count) =>
        origin === undefined ? asEvents(count) : { kind: 'source', count, source: origin, events: () => source.slice(count) },
    };
  }
  return makeObservation(
    { sessionId: id, header: decoded.header, formatVersion: decoded.sourceVersion, needsRepair, live: false, tornTail: decoded.tornTail },
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
