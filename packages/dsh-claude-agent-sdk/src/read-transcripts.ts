/**
 * @module read-transcripts
 * The reading operations: `load` (one observation of the key's dsh session, its entries as new
 * objects the caller owns, in append order), `listSessions` and `listSubkeys` (the dsh store's list, narrowed by the id
 * prefixes keys hash to, each key read once and remembered), `listSessionSummaries` (the SDK's fold
 * over a session's entries, stamped with the same `mtime` as `listSessions`).
 */
import { SessionError, type SessionSummary } from 'dsh-session';
import { assertOpen, type ClaudeStoreContext } from './claude-store-context.js';
import type { SessionKey, SessionStoreEntry, SessionSummaryEntry } from './claude-types.js';
import { assertRecordedKey } from './hold-session.js';
import { keyOf, readMirror } from './mirror-log.js';
import { checkProjectKey, checkSessionKey, dshSessionIdOf, isMainId, mainSessionId, projectPrefix } from './session-key.js';

/**
 * The entries of the dsh session `id` as recorded for `key`, or null when it is not stored: the stored
 * (frozen, shared) objects, or with `owned` new ones the caller may change (each parsed once from a
 * verified file, see docs/decisions/2026-12-07-owned-event-copies.md).
 */
export async function readEntries(
  context: ClaudeStoreContext,
  id: string,
  key: SessionKey,
  owned = false,
): Promise<SessionStoreEntry[] | null> {
  let events;
  try {
    const observation = await context.store.observe(id);
    events = owned ? observation.copyEvents() : observation.events;
  } catch (error) {
    if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return null;
    throw error;
  }
  const view = readMirror(events);
  assertRecordedKey(id, view.key, key);
  context.keys.set(id, key);
  return view.entries;
}

/** The SDK's `load`: the key's entries (fresh copies, append order), or null for a key never written. */
export async function loadEntries(context: ClaudeStoreContext, key: unknown): Promise<SessionStoreEntry[] | null> {
  assertOpen(context);
  const checked = checkSessionKey(key);
  // Stored events are frozen and shared: the caller gets objects of its own.
  return readEntries(context, dshSessionIdOf(checked), checked, true);
}

/** The key a listed dsh session records (read once, then remembered); undefined when it records none. */
async function recordedKey(context: ClaudeStoreContext, id: string): Promise<SessionKey | undefined> {
  const known = context.keys.get(id);
  if (known !== undefined) return known;
  let key: SessionKey | undefined;
  try {
    key = keyOf((await context.store.observe(id)).events);
  } catch (error) {
    // Deleted between list and read: it is simply not there.
    if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return undefined;
    throw error;
  }
  if (key !== undefined) context.keys.set(id, key);
  return key;
}

/** The dsh summaries whose id starts with `prefix`, each with the key it records. */
async function listUnder(
  context: ClaudeStoreContext,
  prefix: string,
  keep: (id: string) => boolean,
): Promise<Array<{ summary: SessionSummary; key: SessionKey }>> {
  const summaries = (await context.store.list()).filter(
    (summary) => summary.id.startsWith(prefix) && keep(summary.id) && summary.problem === undefined,
  );
  const found: Array<{ summary: SessionSummary; key: SessionKey }> = [];
  for (const summary of summaries) {
    const key = await recordedKey(context, summary.id);
    if (key !== undefined) found.push({ summary, key });
  }
  return found;
}

/** The main transcripts of `projectKey` with their dsh summaries (mtime = the last write's time). */
export async function listMain(
  context: ClaudeStoreContext,
  projectKey: unknown,
): Promise<Array<{ summary: SessionSummary; key: SessionKey }>> {
  assertOpen(context);
  const checked = checkProjectKey(projectKey);
  const prefix = projectPrefix(checked);
  const listed = await listUnder(context, prefix, (id) => isMainId(id, prefix));
  return listed.filter(({ key }) => key.projectKey === checked && key.subpath === undefined);
}

/** The SDK's `listSessions`: main transcripts only, `mtime` integer epoch ms of the last write. */
export async function listSessionIds(
  context: ClaudeStoreContext,
  projectKey: unknown,
): Promise<Array<{ sessionId: string; mtime: number }>> {
  return (await listMain(context, projectKey)).map(({ summary, key }) => ({
    sessionId: key.sessionId,
    mtime: Math.floor(summary.updatedAt),
  }));
}

/** The SDK's `listSubkeys`: the subpaths stored under a session, never the main transcript. */
export async function listSubpaths(context: ClaudeStoreContext, key: unknown): Promise<string[]> {
  assertOpen(context);
  const checked = checkSessionKey(key);
  const prefix = `${mainSessionId(checked.projectKey, checked.sessionId)}-`;
  const listed = await listUnder(context, prefix, () => true);
  return listed
    .filter(
      ({ key: recorded }) =>
        recorded.projectKey === checked.projectKey && recorded.sessionId === checked.sessionId && recorded.subpath !== undefined,
    )
    .map(({ key: recorded }) => recorded.subpath as string)
    .sort();
}

/**
 * The SDK's `listSessionSummaries`: one summary per main transcript, the SDK's own fold over all of
 * its entries with the `listSessions` mtime — current after every append. Without the fold (no SDK
 * installed, none passed) there are none, and the SDK reads each session through `load`.
 */
export async function listSummaries(context: ClaudeStoreContext, projectKey: unknown): Promise<SessionSummaryEntry[]> {
  const fold = context.fold;
  const listed = await listMain(context, projectKey);
  if (fold === null || fold === undefined) return [];
  const summaries: SessionSummaryEntry[] = [];
  for (const { summary, key } of listed) {
    const entries = await readEntries(context, summary.id, key, true);
    if (entries === null) continue;
    summaries.push(fold(undefined, key, entries, { mtime: Math.floor(summary.updatedAt) }));
  }
  return summaries;
}
