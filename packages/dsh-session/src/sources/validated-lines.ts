/**
 * The events of a `validated-lines` read (a backend's own lines, validated before they were stored and
 * unchanged since: PostgreSQL's sealed rows), parsed line by line only when read: a fork of a
 * 100,000-event log parses its cut and its latest turn, a summary its latest title and config.
 */
import type { SessionEvent } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { EventSource } from './event-source.js';
import { SessionError } from '../session-error.js';

/** Event `seq` parsed from its stored line and frozen; `CORRUPT` when the line is not that event. */
export function parseValidatedLine(id: string, line: string, seq: number): SessionEvent {
  return deepFreeze(parseLineOnce(id, line, seq));
}

/** Event `seq` parsed from its stored line, a new unfrozen value; `CORRUPT` when the line is not that event. */
function parseLineOnce(id: string, line: string, seq: number): SessionEvent {
  let event: unknown;
  try {
    event = JSON.parse(line);
  } catch {
    // Only a backend that broke its own seal gets here: the lines were vouched for as validated.
  }
  if (typeof event !== 'object' || event === null || (event as { seq?: unknown }).seq !== seq) {
    throw new SessionError(
      'CORRUPT',
      `Cannot read session ${id}: expected the event at seq ${String(seq)}, received ${JSON.stringify(line.slice(0, 60))}.`,
      {
        sessionId: id,
      },
    );
  }
  return event as SessionEvent;
}

/** The first `count` events of `lines`, parsed and frozen (what `open` keeps as a restored seed). @internal */
export function parseValidatedLines(id: string, lines: readonly string[], count = lines.length): SessionEvent[] {
  const events = new Array<SessionEvent>(count);
  for (let seq = 0; seq < count; seq++) events[seq] = parseValidatedLine(id, lines[seq] as string, seq);
  return events;
}

/**
 * @internal The first `length` events of `lines` (line `i` holds seq `i`; the array may grow past
 * `length` later and is never read there), each parsed once, when first read. A type
 * is found by the envelope's leading `{"seq":N,"type":…` — where `serializeEvent` puts it, so text
 * inside an event's data never matches — and confirmed by parsing that line.
 */
export function validatedLinesSource(id: string, lines: readonly string[], length = lines.length): EventSource {
  const { decoded, parse } = parsedOnce(id, (index) => lines[index] as string);
  let all: SessionEvent[] | undefined;
  const at = (index: number): SessionEvent => all?.[index] ?? parse(index);

  return {
    length,
    at,
    findLast(types, end = length) {
      const fields = types.map((type) => `,"type":${JSON.stringify(type)},`);
      for (let index = Math.min(end, length) - 1; index >= 0; index--) {
        const line = lines[index] as string;
        // `{"seq":` is 7 characters, then the seq's digits.
        const offset = 7 + digits(index);
        for (let which = 0; which < fields.length; which++) {
          if (line.startsWith(fields[which] as string, offset) && at(index).type === types[which]) return index;
        }
      }
      return -1;
    },
    slice(count) {
      if (all === undefined || all.length < count) {
        const events = new Array<SessionEvent>(count);
        for (let index = 0; index < count; index++)
          events[index] = all?.[index] ?? decoded.get(index) ?? parseValidatedLine(id, lines[index] as string, index);
        all = events;
        decoded.clear();
        return events.slice();
      }
      return all.slice(0, count);
    },
    read(from, to) {
      const events = new Array<SessionEvent>(Math.max(0, to - from));
      for (let index = from; index < to; index++)
        events[index - from] = all?.[index] ?? decoded.get(index) ?? parseValidatedLine(id, lines[index] as string, index);
      return events;
    },
    fresh(count) {
      const events = new Array<SessionEvent>(count);
      for (let index = 0; index < count; index++) events[index] = parseLineOnce(id, lines[index] as string, index);
      return events;
    },
  };
}

/** @internal Event `index` parsed from `lineOf(index)` the first time it is asked for, then kept (`decoded`). */
export function parsedOnce(
  id: string,
  lineOf: (index: number) => string,
): { decoded: Map<number, SessionEvent>; parse: (index: number) => SessionEvent } {
  const decoded = new Map<number, SessionEvent>();
  const parse = (index: number): SessionEvent => {
    let event = decoded.get(index);
    if (event === undefined) {
      event = parseValidatedLine(id, lineOf(index), index);
      decoded.set(index, event);
    }
    return event;
  };
  return { decoded, parse };
}

/** The number of decimal digits of a non-negative integer. */
function digits(value: number): number {
  let count = 1;
  for (let rest = value; rest >= 10; rest = Math.floor(rest / 10)) count++;
  return count;
}

/**
 * @internal The events of a log of `length` events of which only `lines` (by seq) were read — a
 * summary's parts (`StoredSummary`): `at` reads those; `findLast` answers only for the types the
 * lines were read for (`complete`), among the lines. Anything else is a bug of the caller, refused
 * loudly rather than answered from events that were never read.
 */
export function sparseLinesSource(
  id: string,
  length: number,
  lines: ReadonlyMap<number, string>,
  complete: readonly string[],
): EventSource {
  const seqs = [...lines.keys()].sort((a, b) => b - a);
  const { parse: at } = parsedOnce(id, (index) => {
    const line = lines.get(index);
    if (line === undefined) throw new Error(`session ${id}: event ${String(index)} was not read for its summary`);
    return line;
  });
  return {
    length,
    at,
    findLast(types, end = length) {
      for (const type of types)
        if (!complete.includes(type)) throw new Error(`session ${id}: ${type} events were not read for its summary`);
      for (const seq of seqs) if (seq < end && types.includes(at(seq).type)) return seq;
      return -1;
    },
    slice() {
      throw new Error(`session ${id}: only a summary's events were read`);
    },
  };
}
