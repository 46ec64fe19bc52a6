/**
 * @module A backend's own event lines, each validated by a dsh Session or the codec before the backend
 * stored it and unchanged since (PostgreSQL: rows whose seal still matches), with the header it
 * stored beside them. The store parses a line only when its event is read, so a fork or a summary of
 * a long log parses a few, and never validates them again.
 */
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { currentDecodedLog } from './current-decoded-log.js';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines } from '../fast-backend.js';
import type { StoredLog } from '../session-backend.js';
import { assertHeaderNames } from './decode-jsonl-text.js';
import { latestTurnOf } from './event-source.js';
import { parseValidatedLines, validatedLinesSource } from './validated-lines.js';

/** Validated lines read from a backend: `lines[i]` (i < `count`) holds event seq `i` as `serializeEvent` wrote it (current format, `\n`-terminated). */
export class ValidatedLinesLog implements StoredLines {
  readonly header: SessionHeader;
  /** May be longer than this read (a backend may share one growing array between reads): only the first `count` are its lines. */
  readonly lines: readonly string[];
  /** How many events this read holds: `lines[0 .. count - 1]`. */
  readonly count: number;

  constructor(header: SessionHeader, lines: readonly string[], count: number) {
    this.header = header;
    this.lines = lines;
    this.count = count;
  }

  /** Every line parsed and frozen, never validated again: the backend vouches for them. */
  decode(id: string): DecodedLog {
    const events = parseValidatedLines(id, this.lines, this.count);
    assertHeaderNames(id, this.header);
    return currentDecodedLog(this.header, events, this.count);
  }

  storedLog(id: string): StoredLog {
    const { header, events } = this.decode(id);
    return { header, events };
  }

  /** Only the latest turn is parsed here (to learn whether it needs repair); the events are parsed one by one when someone reads them. */
  observe(id: string): ObservedLog {
    const { header, lines, count } = this;
    assertHeaderNames(id, header);
    const source = validatedLinesSource(id, lines, count);
    const needsRepair = closeOpenTail(latestTurnOf(source, count), 'interrupted').length > 0;
    return { header: deepFreeze(header), formatVersion: CURRENT_FORMAT_VERSION, needsRepair, source, validated: count };
  }
}
