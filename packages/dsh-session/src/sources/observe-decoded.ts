/** @module A log decoded in full (JSONL text, records) as an observation sees it. */
import type { SessionEvent } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog } from '../fast-backend.js';
import { arraySource } from './event-source.js';

/**
 * The observed form of a decoded log: its events frozen in place (the decoded array is the read's
 * own — fresh from JSONL, or the backend's snapshot — so it is frozen, not copied), repair needed for
 * a torn tail or an open turn.
 */
export function observeDecoded(decoded: DecodedLog): ObservedLog {
  for (const event of decoded.events) deepFreeze(event);
  const events: readonly SessionEvent[] = Object.freeze(decoded.events);
  const needsRepair = decoded.tornTail !== undefined || closeOpenTail(events, 'interrupted').length > 0;
  return {
    header: decoded.header,
    formatVersion: decoded.sourceVersion,
    needsRepair,
    tornTail: decoded.tornTail,
    source: arraySource(events),
    validated: decoded.validated,
  };
}
