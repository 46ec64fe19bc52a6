/**
 * @module `windowedLinesSource`: the events of a stored log of which a backend read only some lines (a
 * fork's window of a PostgreSQL session: its cut, its latest turn, its landmark rows), every other line
 * loaded on first need — all of them at once, through the backend's synchronous load — so whoever reads
 * the events gets exactly what a whole read returns.
 */
import type { SessionEvent } from 'dsh-codec';
import type { EventSource } from './event-source.js';
import { parsedOnce, validatedLinesSource } from './validated-lines.js';

/** What a backend read of a log's lines, and how to load the rest (dsh-session/internal: dsh-postgres builds it). */
export type LinesWindow = {
  /** The lines read, by seq (each validated before it was stored, as `serializeEvent` wrote it). */
  readonly lines: ReadonlyMap<number, string>;
  /** Seq ranges `[first, last]` whose lines are all among `lines`. */
  readonly ranges: readonly (readonly [number, number])[];
  /**
   * The seq and type of events of `landmarkTypes` (their lines among `lines`): every one inside `ranges`,
   * and the latest of each type before each range (if any).
   */
  readonly landmarks: ReadonlyMap<number, string>;
  /** The types `landmarks` holds: `findLast` of these whose `end - 1` lies in a range needs no other line. */
  readonly landmarkTypes: readonly string[];
  /** Every line of the log (at least `length`), read synchronously; called at most once per log. */
  readonly loadAll: () => readonly string[];
};

/**
 * @internal The first `length` events of a log read through `window`: `at` parses a line read, and
 * `findLast` of landmark types up to a seq inside a range answers from the landmarks; any other line, search, `slice` or `read`
 * loads every line first (`window.loadAll`) and then answers as a whole read's source does.
 */
export function windowedLinesSource(id: string, length: number, window: LinesWindow): EventSource {
  let whole: EventSource | undefined;
  let all: readonly string[] | undefined;
  const load = (): readonly string[] => {
    all ??= window.loadAll();
    whole ??= validatedLinesSource(id, all, length);
    return all;
  };
  const { parse: at } = parsedOnce(id, (index) => window.lines.get(index) ?? (load()[index] as string));
  const landmarkSeqs = [...window.landmarks.keys()].sort((a, b) => b - a);
  const events = (from: number, to: number): SessionEvent[] => {
    load();
    const copy = new Array<SessionEvent>(Math.max(0, to - from));
    for (let index = from; index < to; index++) copy[index - from] = at(index);
    return copy;
  };
  return {
    length,
    at,
    findLast(types, end = length) {
      const last = Math.min(end, length) - 1;
      if (last < 0) return -1;
      const inRange = window.ranges.some(([first, final]) => first <= last && last <= final);
      if (whole === undefined && inRange && types.every((type) => window.landmarkTypes.includes(type))) {
        // Inside the range every landmark is known, and below it the latest of each type: the first match is the latest.
        for (const seq of landmarkSeqs) {
          if (seq >= end || seq >= length) continue;
          if (types.includes(window.landmarks.get(seq) as string) && types.includes(at(seq).type)) return seq;
        }
        return -1;
      }
      load();
      return (whole as EventSource).findLast(types, end);
    },
    slice: (count) => events(0, count),
    read: events,
  };
}
