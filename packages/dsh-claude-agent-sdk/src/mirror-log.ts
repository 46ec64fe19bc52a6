/**
 * @module mirror-log
 * How a transcript lives in a dsh session: the seed (title, `session/end-seed`), one `claude/key`
 * event recording the key, an optional `claude/fork` (lineage of a fork), then one ignorable
 * `claude/entry` per entry holding it verbatim, in append order; `session/title` when it changes.
 */
import type { JsonValue, SessionEvent } from 'dsh-codec';
import type { SessionKey, SessionStoreEntry } from './claude-types.js';

/** Event type of the key record (first event after the seed). */
export const KEY_EVENT = 'claude/key';
/** Event type of one stored entry (`data` is the entry). */
export const ENTRY_EVENT = 'claude/entry';
/** Event type of a fork child's lineage: `{ parent: SessionKey, parentSession, at, inheritedEntryCount }`. */
export const FORK_EVENT = 'claude/fork';

/** What a fork child records about where it came from. */
export type ForkRecord = { parent: SessionKey; parentSession: string; at: string; inheritedEntryCount: number };

/** The parts of a mirrored session's events this package reads. */
export type MirrorView = { key: SessionKey | undefined; entries: SessionStoreEntry[]; fork: ForkRecord | undefined };

/** Reads the key, the entries (the stored objects themselves) and the fork record from `events`. */
export function readMirror(events: readonly SessionEvent[]): MirrorView {
  let key: SessionKey | undefined;
  let fork: ForkRecord | undefined;
  const entries: SessionStoreEntry[] = [];
  for (const event of events) {
    if (event.type === ENTRY_EVENT) entries.push(event.data as SessionStoreEntry);
    else if (event.type === KEY_EVENT && key === undefined) key = event.data as SessionKey;
    else if (event.type === FORK_EVENT && fork === undefined) fork = event.data as ForkRecord;
  }
  return { key, entries, fork };
}

/** The first event recording a key, without reading past it. */
export function keyOf(events: readonly SessionEvent[]): SessionKey | undefined {
  for (const event of events) if (event.type === KEY_EVENT) return event.data as SessionKey;
  return undefined;
}

/** The events of a new mirrored session: seed, key, fork record, entries (seq from 0, one `time`). */
export function newMirrorEvents(
  key: SessionKey,
  entries: readonly SessionStoreEntry[],
  time: number,
  title: string | undefined,
  fork?: ForkRecord,
): SessionEvent[] {
  const events: SessionEvent[] = [];
  const push = (type: string, data: JsonValue, ignorable: boolean): void => {
    events.push({ seq: events.length, type, time, data, ...(ignorable ? { ignorable: true as const } : {}) });
  };
  if (title !== undefined) push('session/title', { title }, false);
  push('session/end-seed', {}, false);
  push(KEY_EVENT, key, true);
  if (fork !== undefined) push(FORK_EVENT, fork, true);
  for (const entry of entries) push(ENTRY_EVENT, entry as JsonValue, true);
  return events;
}
