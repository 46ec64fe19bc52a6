/** @module `SessionStore.list`: every stored session's summary, cached per backend stamp. */
import { CURRENT_FORMAT_VERSION } from 'dsh-codec';
import { assertHeaderNames } from '../sources/decode-jsonl-text.js';
import { arraySource } from '../sources/event-source.js';
import { observeStored } from './observe-session.js';
import type { StoredSessionRef } from '../session-backend.js';
import { SessionError } from '../session-error.js';
import { observedEventsOf } from './session-observation.js';
import { LOG_SNAPSHOT } from '../session/session.js';
import { assertStoreOpen, type StoreContext } from './store-context.js';
import { summarize, type SessionSummary } from './summarize.js';
import { sparseLinesSource } from '../sources/validated-lines.js';

/**
 * The event types `summarize` looks for: its latest title, and configs from the latest back to the
 * first that names a cwd — of which a backend's parts hold only that one, the one it stops at.
 */
const SUMMARY_TYPES = ['session/title', 'session/config'];

/** The summary of a session a backend read by its parts (`readSummary`), undefined when it could not. */
async function summaryFromParts(context: StoreContext, id: string): Promise<Omit<SessionSummary, 'busy'> | undefined> {
  const parts = await context.backend.readSummary?.(id);
  if (parts === undefined) return undefined;
  const { header, count, lines, latestTurnStart, latestTurnEnd } = parts;
  assertHeaderNames(id, header);
  // A turn is open — `open` would close it — when its start has no end after it.
  const needsRepair = latestTurnStart > latestTurnEnd;
  return summarize(header, sparseLinesSource(id, count, lines, SUMMARY_TYPES), CURRENT_FORMAT_VERSION, needsRepair);
}

async function summaryOf(context: StoreContext, id: string): Promise<Omit<SessionSummary, 'busy'>> {
  try {
    const fromParts = await summaryFromParts(context, id);
    if (fromParts !== undefined) return fromParts;
    // One observation: a verified log is summarized from its latest lines, anything else decoded once.
    const observation = await observeStored(context, id);
    const events = observedEventsOf(observation, context.origin)?.source ?? arraySource(observation.events);
    return summarize(observation.header, events, observation.formatVersion, observation.needsRepair);
  } catch (error) {
    if (!SessionError.is(error) || error.code === 'SESSION_NOT_FOUND') throw error;
    return {
      id,
      inheritedEventCount: 0,
      createdAt: 0,
      updatedAt: 0,
      lastSeq: -1,
      formatVersion: CURRENT_FORMAT_VERSION,
      needsRepair: false,
      problem: { code: error.code, message: error.message },
    };
  }
}

/**
 * Whether `id` is a session this store holds that was read in the current format: it is summarized
 * from its log in memory and its stored bytes are not read. (An older log is read for the version it
 * is stored in, until its first write rewrites it.)
 */
function heldCurrent(context: StoreContext, id: string): boolean {
  return context.live.get(id)?.formatVersion === CURRENT_FORMAT_VERSION;
}

/**
 * How many summaries are read at once: enough to overlap a database's round trips (or a directory's
 * file reads), few enough to leave most of a pool's connections to writers.
 */
const SUMMARIES_AT_ONCE = 4;

/**
 * Reads the summary of every ref whose stamp changed since it was cached, `SUMMARIES_AT_ONCE` at a
 * time; the ids of those deleted since the backend listed them (they are left out of the list).
 */
async function refreshSummaries(context: StoreContext, refs: readonly StoredSessionRef[]): Promise<Set<string>> {
  const stale = refs.filter((ref) => !heldCurrent(context, ref.id) && context.summaries.get(ref.id)?.stamp !== ref.stamp);
  const gone = new Set<string>();
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let ref = stale[next++]; ref !== undefined; ref = stale[next++]) {
      try {
        context.summaries.set(ref.id, { stamp: ref.stamp, summary: await summaryOf(context, ref.id) });
      } catch (error) {
        if (!SessionError.is(error) || error.code !== 'SESSION_NOT_FOUND') throw error;
        gone.add(ref.id);
      }
    }
  };
  const workers = await Promise.allSettled(Array.from({ length: Math.min(SUMMARIES_AT_ONCE, stale.length) }, worker));
  for (const outcome of workers) if (outcome.status === 'rejected') throw outcome.reason;
  return gone;
}

/** What `list()` returns: every session, or (`busy: true`) only those held now. */
export type ListOptions = { busy?: boolean };

/** Whether a ref is held now: open in this store, or its lease has a live holder. */
async function isHeld(context: StoreContext, ref: StoredSessionRef): Promise<boolean> {
  return context.live.has(ref.id) || (ref.held ?? (await context.backend.holder(ref.id)) !== undefined);
}

/** Every stored session with its lineage (`busy`: only the held ones), most recently updated first; live ones from memory. */
export async function listSessions(context: StoreContext, options: ListOptions = {}): Promise<SessionSummary[]> {
  assertStoreOpen(context);
  const all = await context.backend.list();
  // Only the held ones: a lease check each, and no other session's summary is read.
  const refs = options.busy === true ? await heldRefs(context, all) : all;
  const gone = await refreshSummaries(context, refs);
  const result: SessionSummary[] = [];
  for (const ref of refs) {
    const session = context.live.get(ref.id);
    const cached = context.summaries.get(ref.id);
    let fresh: Omit<SessionSummary, 'busy'>;
    if (gone.has(ref.id)) continue;
    if (session !== undefined && cached === undefined && session.formatVersion === CURRENT_FORMAT_VERSION)
      fresh = summarize(session.header, session[LOG_SNAPSHOT](), CURRENT_FORMAT_VERSION, false);
    else if (cached !== undefined)
      fresh =
        session === undefined ? cached.summary : summarize(session.header, session[LOG_SNAPSHOT](), cached.summary.formatVersion, false);
    else {
      // Released while the others were read: read it now.
      const read = await refreshSummaries(context, [ref]);
      const summary = context.summaries.get(ref.id)?.summary;
      if (read.has(ref.id) || summary === undefined) continue;
      fresh = summary;
    }
    const busy = session !== undefined || (ref.held ?? (await context.backend.holder(ref.id)) !== undefined);
    result.push({ ...fresh, busy });
  }
  if (options.busy === true) return result.sort(byUpdated);
  const known = new Set(refs.filter((ref) => !gone.has(ref.id)).map((ref) => ref.id));
  for (const id of context.summaries.keys()) if (!known.has(id)) context.summaries.delete(id);
  return result.sort(byUpdated);
}

function byUpdated(a: SessionSummary, b: SessionSummary): number {
  return b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}

async function heldRefs(context: StoreContext, refs: readonly StoredSessionRef[]): Promise<StoredSessionRef[]> {
  const held: StoredSessionRef[] = [];
  for (const ref of refs) if (await isHeld(context, ref)) held.push({ ...ref, held: true });
  return held;
}
