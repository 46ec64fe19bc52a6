/**
 * @module Current records as a backend read them (memory, PostgreSQL's parsed rows, a public backend's
 * `read`), with or without the claim that a dsh Session or the codec validated every one of them.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines } from '../fast-backend.js';
import type { StoredLog } from '../session-backend.js';
import { currentDecodedLog } from './current-decoded-log.js';
import { assertHeaderNames } from './decode-jsonl-text.js';
import { observeDecoded } from './observe-decoded.js';

/** Records read from a backend; `validated` only when none of them can have changed since a dsh Session (or the codec) validated it. */
export class RecordsLog implements StoredLines {
  readonly header: SessionHeader;
  /** A fresh array per read: the store keeps it (frozen) as the observation's events. */
  readonly events: readonly SessionEvent[];
  /** Whether the store may skip validating them again. */
  readonly validated: boolean;

  constructor(header: SessionHeader, events: readonly SessionEvent[], validated: boolean) {
    this.header = header;
    this.events = events;
    this.validated = validated;
  }

  /** The records as they are, frozen (they are shared with the backend). */
  decode(id: string): DecodedLog {
    const { header, events } = this;
    assertHeaderNames(id, header);
    for (const event of events) deepFreeze(event);
    return currentDecodedLog(header, events, this.validated ? events.length : 0);
  }

  storedLog(): StoredLog {
    return { header: this.header, events: this.events };
  }

  observe(id: string): ObservedLog {
    return observeDecoded(this.decode(id));
  }
}
