/**
 * @module `WindowedLinesLog`: a backend's validated lines of which only a window was read (a fork by id
 * of a PostgreSQL session that this store does not hold), the rest loaded on first need. A fork reads
 * its cut and the turns around it; a child that is then read whole (its first model turn) loads the rest.
 */
import { CURRENT_FORMAT_VERSION, type SessionHeader } from 'dsh-codec';
import { closeOpenTail } from '../close-open-tail.js';
import { deepFreeze } from '../deep-freeze.js';
import type { DecodedLog, ObservedLog, StoredLines } from '../fast-backend.js';
import type { StoredLog } from '../session-backend.js';
import { assertHeaderNames } from './decode-jsonl-text.js';
import { latestTurnOf } from './event-source.js';
import { ValidatedLinesLog } from './validated-lines-log.js';
import { windowedLinesSource, type LinesWindow } from './windowed-lines.js';

/** `count` validated lines of which `window` holds those read; `window.loadAll` gives every one (read once, shared by every view of this log). */
export class WindowedLinesLog implements StoredLines {
  readonly header: SessionHeader;
  readonly count: number;
  readonly #window: LinesWindow;
  #whole: ValidatedLinesLog | undefined;

  constructor(header: SessionHeader, count: number, window: LinesWindow) {
    this.header = header;
    this.count = count;
    let all: readonly string[] | undefined;
    this.#window = { ...window, loadAll: () => (all ??= window.loadAll()) };
  }

  #loaded(): ValidatedLinesLog {
    this.#whole ??= new ValidatedLinesLog(this.header, this.#window.loadAll(), this.count);
    return this.#whole;
  }

  decode(id: string): DecodedLog {
    return this.#loaded().decode(id);
  }

  storedLog(id: string): StoredLog {
    return this.#loaded().storedLog(id);
  }

  /** The events as a windowed source: only the latest turn is parsed here (whether it needs repair). */
  observe(id: string): ObservedLog {
    const { header, count } = this;
    assertHeaderNames(id, header);
    const source = windowedLinesSource(id, count, this.#window);
    const needsRepair = closeOpenTail(latestTurnOf(source, count), 'interrupted').length > 0;
    return { header: deepFreeze(header), formatVersion: CURRENT_FORMAT_VERSION, needsRepair, source, validated: count };
  }
}
