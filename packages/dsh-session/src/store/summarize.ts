/**
 * @module `SessionSummary`, one `list()` line, derived from a log's header, its latest metadata and its last event.
 */
import type { FormatVersion, SessionHeader } from 'dsh-codec';
import type { EventSource } from '../sources/event-source.js';
import { latestMetadataOf } from '../sources/latest-metadata-of.js';

const TITLE = ['session/title'];

/** One line of `SessionStore.list()`: identity, lineage, timestamps and state. */
export type SessionSummary = {
  id: string;
  /** The latest `session/title`. */
  title?: string;
  /** True when that title came with a fork's inherited prefix (the fork set no name of its own). */
  titleInherited?: true;
  parentSession?: string;
  forkCut?: number;
  inheritedEventCount: number;
  /** The idempotency key and request digest the fork was created under (V5 header `forkRequest`). */
  forkRequest?: { key: string; digest: string };
  createdAt: number;
  /** Time of the last event, at least `createdAt`. */
  updatedAt: number;
  /** Seq of the last stored event; -1 when there is none. */
  lastSeq: number;
  /** The latest `session/config` cwd, else the header's. */
  cwd?: string;
  /** The format version the log is stored in. */
  formatVersion: FormatVersion;
  /** True when `open` would repair the log (an open turn, a torn final line). */
  needsRepair: boolean;
  /** True when a writer holds the session (this store or another live process). */
  busy: boolean;
  /** Set when the stored log cannot be read: the error's code and message (other fields are then defaults). */
  problem?: { code: string; message: string };
};

/** @internal The summary of a log, without `busy`; only its latest title, config and last event are read. */
export function summarize(
  header: SessionHeader,
  events: EventSource,
  formatVersion: FormatVersion,
  needsRepair: boolean,
): Omit<SessionSummary, 'busy'> {
  const { title, cwd } = latestMetadataOf(events, header.cwd);
  const last = events.length === 0 ? undefined : events.at(events.length - 1);
  // Only a fork can inherit its name: one more look for the latest title, from the log's end.
  const titleInherited = title !== undefined && header.inheritedEventCount > 0 && events.findLast(TITLE) < header.inheritedEventCount;
  return {
    id: header.id,
    ...(title === undefined ? {} : { title }),
    ...(titleInherited ? { titleInherited } : {}),
    ...(header.parentSession === undefined ? {} : { parentSession: header.parentSession }),
    ...(header.forkCut === undefined ? {} : { forkCut: header.forkCut }),
    inheritedEventCount: header.inheritedEventCount,
    ...(header.forkRequest === undefined ? {} : { forkRequest: { key: header.forkRequest.key, digest: header.forkRequest.digest } }),
    createdAt: header.createdAt,
    // A fork child's last event may be inherited (older than the child): it was updated when created.
    updatedAt: Math.max(header.createdAt, last?.time ?? header.createdAt),
    lastSeq: last?.seq ?? -1,
    ...(cwd === undefined ? {} : { cwd }),
    formatVersion,
    needsRepair,
  };
}
