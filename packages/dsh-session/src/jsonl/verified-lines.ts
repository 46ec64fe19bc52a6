/**
 * The events of a JSONL log whose bytes this store verified (`jsonl-verified-stamp.ts`: written by a
 * dsh writer from validated events, unchanged since), decoded line by line only when read: a fork of a
 * 100,000-event log reads its cut, its latest turn and finds its latest title without decoding the rest.
 */
import { isAscii } from 'node:buffer';
import type { SessionEvent } from 'dsh-codec';
import { deepFreeze } from '../deep-freeze.js';
import type { EventSource } from '../sources/event-source.js';
import type { LineEnds } from './line-ends.js';
import { SessionError } from '../session-error.js';

/**
 * The most bytes of lines decoded into one string at a time (a long log is never one string). Kept
 * under V8's large-object size (128 KiB): a bigger string gets fresh pages of its own (see
 * docs/decisions/2026-12-07-sdk-store-load-and-reopen-reads.md).
 */
const CHUNK_BYTES = 32 * 1024;

/**
 * @internal The events of `bytes`, whose line `i + 1` (line 0 is the header) holds event `i` — seq
 * `first + i` (a run of a log's lines, e.g. a sealed segment, starts past 0); `ends` gives the offset
 * after each line. Events read one at a time (`at`) or all at once (`slice`) are frozen and kept, so
 * each line is parsed once; events read in windows (`read`) are kept only with `keepReads` — a source
 * several sessions read whole (an observation fork children inherit: each peer's first model request
 * walks it) — and otherwise parsed anew per read, so a long walk holds one window at a time.
 */
export function verifiedLinesSource(id: string, bytes: Buffer, ends: LineEnds, first = 0, keepReads = false): EventSource {
  const length = ends.length - 1;
  const decoded = new Map<number, SessionEvent>();
  let all: SessionEvent[] | undefined;
  /** With `keepReads`: the events `read` decoded, by index (sparse until read). */
  const kept: (SessionEvent | undefined)[] | undefined = keepReads ? new Array<SessionEvent | undefined>(length) : undefined;

  /** Event `index` parsed from its line: a new value, neither frozen nor kept. */
  const parseLine = (index: number): SessionEvent => parsedAs(index, bytes.toString('utf8', ends.at(index), ends.at(index + 1) - 1));
  /** `text`, the line of event `index`, parsed; `CORRUPT` when it is not that event. */
  const parsedAs = (index: number, text: string): SessionEvent => {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch {
      // Only a stamp forged beside a changed file gets here: the stamp matched these bytes.
    }
    // The stamp vouches for the bytes; a line at the wrong place would be a bug of the writer.
    if (typeof event !== 'object' || event === null || (event as { seq?: unknown }).seq !== first + index) {
      throw new SessionError(
        'CORRUPT',
        `Cannot read session ${id}: expected the event at seq ${String(first + index)} on line ${String(first + index + 2)}, received ${JSON.stringify(text.slice(0, 60))}.`,
        {
          sessionId: id,
        },
      );
    }
    return event as SessionEvent;
  };
  const decodeLine = (index: number): SessionEvent => deepFreeze(parseLine(index));

  /**
   * Hands `use` each event `from..to-1` parsed anew. The bytes are decoded a chunk of lines at a time
   * (at most `CHUNK_BYTES` each, one string per chunk): a chunk of ASCII bytes is decoded as Latin-1 and
   * sliced at the byte offsets; one holding any other byte is decoded a line at a time, as UTF-8.
   */
  const parseRange = (from: number, to: number, use: (index: number, event: SessionEvent) => void): void => {
    for (let index = from; index < to;) {
      const start = ends.at(index);
      let end = index + 1;
      while (end < to && ends.at(end + 1) - start <= CHUNK_BYTES) end++;
      // ASCII bytes (checked in one pass) are their own text: decoded as Latin-1, a copy, not UTF-8's slower decode.
      const ascii = isAscii(bytes.subarray(start, ends.at(end)));
      const text = bytes.toString(ascii ? 'latin1' : 'utf8', start, ends.at(end));
      for (; index < end; index++)
        use(index, ascii ? parsedAs(index, text.slice(ends.at(index) - start, ends.at(index + 1) - 1 - start)) : parseLine(index));
    }
  };

  const at = (index: number): SessionEvent => {
    const known = all?.[index] ?? kept?.[index] ?? decoded.get(index);
    if (known !== undefined) return known;
    const event = decodeLine(index);
    decoded.set(index, event);
    return event;
  };

  /** The event index whose line holds byte `offset` (binary search over the line ends). */
  const lineAt = (offset: number): number => {
    let low = 1;
    let high = ends.length - 1;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if (ends.at(middle) <= offset) low = middle + 1;
      else high = middle;
    }
    return low - 1;
  };

  /** The latest event of `type` before index `end`: the envelope's `"type":"…"` is searched in the bytes, then confirmed by decoding its line. */
  const findLastOf = (type: string, end: number): number => {
    const needle = `"type":${JSON.stringify(type)}`;
    const start = ends.at(0);
    for (let position = ends.at(end) - 1; position >= start;) {
      const found = bytes.lastIndexOf(needle, position, 'utf8');
      if (found < start) return -1;
      const index = lineAt(found);
      // The text may also stand inside an event's data (a nested object): only the envelope counts.
      if (at(index).type === type) return index;
      position = ends.at(index) - 1;
    }
    return -1;
  };

  return {
    length,
    at,
    findLast(types, end = length) {
      let latest = -1;
      for (const type of types) latest = Math.max(latest, findLastOf(type, Math.min(end, length)));
      return latest;
    },
    slice(count) {
      if (all === undefined || all.length < count) {
        const events = new Array<SessionEvent>(count);
        for (let index = 0; index < count; index++)
          events[index] = all?.[index] ?? kept?.[index] ?? decoded.get(index) ?? decodeLine(index);
        all = events;
        decoded.clear();
        return events.slice();
      }
      return all.slice(0, count);
    },
    read(from, to) {
      const events = new Array<SessionEvent>(Math.max(0, to - from));
      if (all !== undefined && all.length >= to) {
        for (let index = from; index < to; index++) events[index - from] = all[index] as SessionEvent;
        return events;
      }
      if (kept === undefined) {
        parseRange(from, to, (index, event) => {
          events[index - from] = decoded.get(index) ?? deepFreeze(event);
        });
        return events;
      }
      // Kept: each run of lines no read decoded yet is parsed once, and every later read hands out the same frozen events.
      for (let index = from; index < to;) {
        const known = kept[index] ?? all?.[index] ?? decoded.get(index);
        if (known !== undefined) {
          kept[index] = known;
          events[index - from] = known;
          index++;
          continue;
        }
        let end = index + 1;
        while (end < to && kept[end] === undefined && all?.[end] === undefined && !decoded.has(end)) end++;
        parseRange(index, end, (at, event) => {
          const frozen = deepFreeze(event);
          kept[at] = frozen;
          events[at - from] = frozen;
        });
        index = end;
      }
      return events;
    },
    fresh(count) {
      // Parsed again even when decoded before: what this returns is the caller's alone.
      const events = new Array<SessionEvent>(count);
      parseRange(0, count, (index, event) => {
        events[index] = event;
      });
      return events;
    },
  };
}
