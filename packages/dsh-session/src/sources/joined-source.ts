/**
 * @module `joinedSource`: an inherited prefix followed by a session's own events, as one source. A
 * session reopened from the one before it (`SessionStore.reopen`) inherits that one's log, so joins
 * nest once per reopen: they are kept flat (one list of immutable parts, found by binary search), and
 * each part remembers what a whole-part `findLast` found, so the searches every open makes (the
 * latest `turn/start`, title, config) cost the parts added since, not the whole history again.
 */
import type { SessionEvent } from 'dsh-codec';
import { copyJsonTree } from '../copy-json-tree.js';
import { arraySource, fileCallsOf, ownedEvents, readEvents, type EventSource } from './event-source.js';
import type { FileCall } from './file-call.js';

/** `source[0..length)` placed at seq `start` of the joined log; `found` memoizes whole-part `findLast` answers. */
type Part = { readonly source: EventSource; readonly start: number; readonly length: number; readonly found: Map<string, number> };

function part(source: EventSource, start: number, length: number): Part {
  return { source, start, length, found: new Map() };
}

/** A flat list of parts (each immutable), read as one source. */
class JoinedSource implements EventSource {
  readonly length: number;
  readonly #parts: readonly Part[];

  constructor(parts: readonly Part[]) {
    this.#parts = parts;
    const last = parts.at(-1);
    this.length = last === undefined ? 0 : last.start + last.length;
  }

  /** The parts covering `[0, count)` (a part crossing `count` cut to fit, with a memo of its own). */
  partsBefore(count: number): Part[] {
    const parts: Part[] = [];
    for (const each of this.#parts) {
      if (each.start >= count) break;
      parts.push(each.start + each.length <= count ? each : part(each.source, each.start, count - each.start));
    }
    return parts;
  }

  /** The index of the part holding seq `index`. */
  #partAt(index: number): number {
    const parts = this.#parts;
    let low = 0;
    let high = parts.length - 1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if ((parts[middle] as Part).start <= index) low = middle;
      else high = middle - 1;
    }
    return low;
  }

  at(index: number): SessionEvent {
    const holder = this.#parts[this.#partAt(index)] as Part;
    return holder.source.at(index - holder.start);
  }

  findLast(types: readonly string[], end = this.length): number {
    const key = types.join('\n');
    for (let index = this.#parts.length - 1; index >= 0; index--) {
      const each = this.#parts[index] as Part;
      if (each.start >= end) continue;
      const within = Math.min(end - each.start, each.length);
      let found: number | undefined;
      if (within === each.length) {
        found = each.found.get(key);
        if (found === undefined) {
          found = each.source.findLast(types, each.length);
          each.found.set(key, found);
        }
      } else found = each.source.findLast(types, within);
      if (found !== -1) return each.start + found;
    }
    return -1;
  }

  slice(count: number): SessionEvent[] {
    return this.read(0, count);
  }

  read(from: number, to: number): SessionEvent[] {
    const events: SessionEvent[] = [];
    for (const each of this.#parts) {
      const low = Math.max(from, each.start);
      const high = Math.min(to, each.start + each.length);
      if (low >= high) continue;
      for (const event of readEvents(each.source, low - each.start, high - each.start)) events.push(event);
    }
    return events;
  }

  fileCalls(from: number, to: number): FileCall[] {
    const calls: FileCall[] = [];
    for (const each of this.#parts) {
      const low = Math.max(from, each.start);
      const high = Math.min(to, each.start + each.length);
      if (low >= high) continue;
      for (const call of fileCallsOf(each.source, low - each.start, high - each.start)) calls.push(call);
    }
    return calls;
  }

  fresh(count: number): SessionEvent[] {
    const events: SessionEvent[] = [];
    for (const each of this.#parts) {
      const high = Math.min(count, each.start + each.length);
      if (high <= each.start) break;
      const taken = high - each.start;
      // Only a part starting at 0 can be parsed anew as a prefix; the rest are copied.
      const owned = each.start === 0 ? ownedEvents(each.source, taken) : readEvents(each.source, 0, taken).map(copyJsonTree);
      for (const event of owned) events.push(event);
    }
    return events;
  }
}

/** @internal `first[0..firstLength)` followed by `rest[0..restLength)`: an inherited prefix and the events after it. */
export function joinedSource(
  first: EventSource,
  firstLength: number,
  rest: readonly SessionEvent[],
  restLength = rest.length,
): EventSource {
  const parts = first instanceof JoinedSource ? first.partsBefore(firstLength) : firstLength > 0 ? [part(first, 0, firstLength)] : [];
  if (restLength > 0) parts.push(part(arraySource(rest, restLength), firstLength, restLength));
  return new JoinedSource(parts);
}
