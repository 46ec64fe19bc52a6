/**
 * @module `latestMetadata`, the public form of `latestMetadataOf`: the latest title, config and cwd of
 * an observation (read from its stored source when it has one) or of an array of events. It lives in
 * store/ because it reads an observation's source; sources/ imports nothing from store/.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { arraySource } from '../sources/event-source.js';
import { latestMetadataOf, type SessionMetadata } from '../sources/latest-metadata-of.js';
import { eventSourceOf, type SessionObservation } from './session-observation.js';

/**
 * The latest title, config and cwd of `log`: an observation (its header's cwd is the fallback; a
 * stored log is read from its end, not decoded whole) or an array of events with an optional header.
 */
export function latestMetadata(log: SessionObservation | readonly SessionEvent[], header?: Pick<SessionHeader, 'cwd'>): SessionMetadata {
  if (Array.isArray(log)) return latestMetadataOf(arraySource(log as readonly SessionEvent[]), header?.cwd);
  const observation = log as SessionObservation;
  return latestMetadataOf(eventSourceOf(observation) ?? arraySource(observation.events), (header ?? observation.header).cwd);
}
