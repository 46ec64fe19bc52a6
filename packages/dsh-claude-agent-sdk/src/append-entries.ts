/**
 * @module append-entries
 * `append(key, entries)`: checks the key and every entry first (nothing stored on a refusal), drops
 * what a retry repeats (`uuid` is the idempotency key), then writes the rest as one batch under the
 * session's lease and resolves once it is durable. The first batch of a key creates its dsh session
 * atomically (seed, key record and entries in one write).
 */
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { SessionError } from 'dsh-session';
import { checkEntries, type CheckedEntry } from './check-entries.js';
import { assertOpen, serialized, type ClaudeStoreContext, type HeldSession } from './claude-store-context.js';
import type { SessionKey } from './claude-types.js';
import { holdSession, scheduleRelease } from './hold-session.js';
import { ENTRY_EVENT, newMirrorEvents } from './mirror-log.js';
import { checkSessionKey, dshSessionIdOf } from './session-key.js';
import { fallbackTitle, nextTitle } from './transcript-title.js';

/**
 * The entries of `batch` to store, given the uuids already stored: none when every uuid-carrying
 * entry of the batch is stored (a retried batch, including its entries without a uuid); otherwise
 * every entry whose uuid is new (first occurrence) and every entry without one.
 */
export function newEntries(batch: readonly CheckedEntry[], stored: ReadonlySet<string>): CheckedEntry[] {
  const withUuid = batch.filter(({ entry }) => entry.uuid !== undefined);
  if (withUuid.length > 0 && withUuid.every(({ entry }) => stored.has(entry.uuid as string))) return [];
  const seen = new Set<string>();
  return batch.filter(({ entry }) => {
    if (entry.uuid === undefined) return true;
    if (stored.has(entry.uuid) || seen.has(entry.uuid)) return false;
    seen.add(entry.uuid);
    return true;
  });
}

/** Creates the dsh session of `key` with its first batch in one atomic write; false when it already exists. */
async function createWith(context: ClaudeStoreContext, id: string, key: SessionKey, batch: CheckedEntry[]): Promise<boolean> {
  const fresh = newEntries(batch, new Set()).map(({ entry }) => entry);
  const time = Date.now();
  const title = nextTitle(undefined, fresh)?.title ?? fallbackTitle(key);
  const header: SessionHeader = { format: 'dsh-session', version: CURRENT_FORMAT_VERSION, id, createdAt: time, inheritedEventCount: 0 };
  try {
    await context.store.import({ header, events: newMirrorEvents(key, fresh, time, title) });
  } catch (error) {
    if (SessionError.is(error) && error.code === 'SESSION_EXISTS') return false;
    throw error;
  }
  context.keys.set(id, key);
  return true;
}

async function appendHeld(context: ClaudeStoreContext, id: string, held: HeldSession, batch: CheckedEntry[]): Promise<void> {
  const fresh = newEntries(batch, held.uuids);
  const title = nextTitle(
    held.title,
    fresh.map(({ entry }) => entry),
  );
  for (const { entry, frozen } of fresh) {
    // The batch's one checked copy, kept by the session as it is.
    held.session.append(ENTRY_EVENT, frozen, { ignorable: true });
    if (entry.uuid !== undefined) held.uuids.add(entry.uuid);
  }
  if (title !== undefined && title.title !== held.title?.title) held.session.append('session/title', { title: title.title });
  held.title = title;
  try {
    // Also writes what an earlier failed flush left pending (a retried batch finds its uuids above).
    await held.session.flush();
  } catch (error) {
    // A lost lease or a closed session cannot be written again: reopen on the next call.
    if (SessionError.is(error) && (error.code === 'SESSION_BUSY' || error.code === 'SESSION_CLOSED')) {
      context.held.delete(id);
      await held.session.close().catch(() => undefined);
    }
    throw error;
  }
}

/** The SDK's `append`: resolves when the batch is durable in the dsh store; `append(key, [])` does nothing. */
export async function appendEntries(context: ClaudeStoreContext, key: unknown, entries: unknown): Promise<void> {
  assertOpen(context);
  const checkedKey = checkSessionKey(key);
  const batch = checkEntries(entries);
  if (batch.length === 0) return;
  const id = dshSessionIdOf(checkedKey);
  await serialized(context, id, async () => {
    for (;;) {
      const held = await holdSession(context, id, checkedKey);
      if (held === undefined) {
        if (await createWith(context, id, checkedKey, batch)) return;
        continue; // another writer created it first: append to theirs
      }
      try {
        await appendHeld(context, id, held, batch);
      } finally {
        await scheduleRelease(context, id);
      }
      return;
    }
  });
}
