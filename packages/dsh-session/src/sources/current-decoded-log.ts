/** @module `currentDecodedLog`: a backend's current-format events as a decoded log (no torn tail, nothing to rewrite). */
import { CURRENT_FORMAT_VERSION, type SessionEvent, type SessionHeader } from 'dsh-codec';
import type { DecodedLog } from '../fast-backend.js';

/** The decoded form of current-format `events` a backend stored whole; `validated` of them need no validation again. */
export function currentDecodedLog(header: SessionHeader, events: readonly SessionEvent[], validated: number): DecodedLog {
  return { header, events, sourceVersion: CURRENT_FORMAT_VERSION, tornTail: undefined, lineEndings: undefined, rewrite: false, validated };
}
