/**
 * `ListedCuts`: the seq `cutInReading` gives the REF cut at each entry of a main line, for the
 * readings `forEachPrefixReading` hands out in turn — the same number, from work on what changed
 * since the previous prefix: the facts `cutInReading` walks (titles, which events stand as in the
 * whole line's reading) are kept per event of the writer's events and taken again only from where
 * they changed.
 */
import type { SessionEvent } from 'dsh-codec';
import { CLOSING, corePositions, sameEvent, TITLE } from './cut-events.js';
import { cutInReading, firstPartOf, type MainLine } from './native-cut.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';
import type { PrefixReading } from './prefix-readings.js';

// How the walk of `heldInPlace` (native-cut.ts) ends at an event: it goes on, breaks, or breaks
// unless every event from there on is a step or turn end (then no event is held in place).
const GOES_ON = 0;
const BREAKS = 1;
const BREAKS_UNLESS_CLOSING = 2;

type Walk = { held: number; partial: boolean };

/** The seq of each prefix's REF cut, prefix after prefix (`at`, with p = 0, 1, … in turn). */
export class ListedCuts {
  private readonly reference: readonly SessionEvent[];
  private readonly referenceCore: readonly number[];
  // Per event of the writer's events, valid below `valid`: titles before it, non-closing core events before it.
  private titles: number[] = [0];
  private nonClosing: number[] = [0];
  // The walk's state before each event (valid below `walked`, which stops at the event it ends at).
  private walks: Walk[] = [{ held: -1, partial: false }];
  private ends: number[] = [];
  private valid = 0;
  private walked = 0;
  private base: readonly SessionEvent[] | undefined;
  // Claude Code: lines of each response id in the file and in the chain so far.
  private readonly responseLines = new Map<string, number>();
  private readonly responseLinesKept = new Map<string, number>();

  constructor(
    private readonly format: NativeFormat,
    private readonly lines: readonly NativeLine[],
    private readonly chain: readonly NativeLine[],
    private readonly main: MainLine,
  ) {
    this.reference = format.format === 'codex' ? [] : main.reading();
    this.referenceCore = corePositions(this.reference);
    if (format.responseIdOf !== undefined)
      for (const line of lines) {
        const id = format.responseIdOf(line);
        if (id !== undefined) this.responseLines.set(id, (this.responseLines.get(id) ?? 0) + 1);
      }
  }

  /** The seq of the cut at `chain[p]` whose prefix reads `reading` (called for p = 0, 1, … in turn). */
  at(p: number, reading: PrefixReading): number {
    const line = this.chain[p] as NativeLine;
    const id = this.format.responseIdOf?.(line);
    if (id !== undefined) this.responseLinesKept.set(id, (this.responseLinesKept.get(id) ?? 0) + 1);
    if (reading.kind === 'whole') return cutInReading(this.format, this.lines, this.chain.slice(0, p + 1), reading.events, this.main);
    const { base, length, tail } = reading;
    const total = length + tail.length;
    if (this.format.format === 'codex') return total - 1;
    this.update(reading);
    const event = (i: number): SessionEvent => (i < length ? base[i] : tail[i - length]) as SessionEvent;
    if (this.format.format === 'pi') {
      const titles = (this.titles[length] as number) + tail.filter((e) => e.type === TITLE).length;
      const mapped = this.referenceCore[total - titles - 1];
      return mapped === undefined || event(total - 1).type === TITLE ? total - 1 : mapped;
    }
    const held = this.heldInPlace(reading);
    return held ?? this.lastHeld(id, total, event);
  }

  /** Takes the facts per event again from where the writer's events changed. */
  private update(reading: Extract<PrefixReading, { kind: 'written' }>): void {
    const { base, length, stable } = reading;
    const from = base === this.base ? Math.min(this.valid, stable) : 0;
    this.base = base;
    this.valid = from;
    this.titles.length = from + 1;
    this.nonClosing.length = from + 1;
    for (let i = from; i < length; i++) {
      const type = (base[i] as SessionEvent).type;
      this.titles.push((this.titles[i] as number) + (type === TITLE ? 1 : 0));
      this.nonClosing.push((this.nonClosing[i] as number) + (type !== TITLE && !CLOSING.has(type) ? 1 : 0));
    }
    this.valid = length;
    if (this.walked > from) {
      this.walked = from;
      this.walks.length = from + 1;
      this.ends.length = from;
    }
    while (this.walked < length && (this.ends[this.walked - 1] ?? GOES_ON) === GOES_ON) {
      const i = this.walked;
      const event = base[i] as SessionEvent;
      const state = this.walks[i] as Walk;
      const [end, next] = event.type === TITLE ? [GOES_ON, state] : this.step(event, i - (this.titles[i] as number), state);
      this.ends.push(end);
      this.walks.push(next);
      this.walked++;
    }
  }

  /** One event of `heldInPlace`'s walk: how it ends there, and the state after it. */
  private step(event: SessionEvent, core: number, state: Walk): [number, Walk] {
    const position = this.referenceCore[core];
    if (position === undefined) return [BREAKS, state];
    if (state.partial && CLOSING.has(event.type)) return [BREAKS, state];
    const line = this.reference[position] as SessionEvent;
    if (sameEvent(event, line)) return [GOES_ON, { held: position, partial: state.partial }];
    if (firstPartOf(event, line)) return [GOES_ON, { held: state.held, partial: true }];
    return [state.partial ? BREAKS : BREAKS_UNLESS_CLOSING, state];
  }

  /** `heldInPlace` of the reading (native-cut.ts). */
  private heldInPlace(reading: Extract<PrefixReading, { kind: 'written' }>): number | undefined {
    const { length, tail } = reading;
    const result = (walk: Walk): number | undefined => (walk.held < 0 ? undefined : walk.held);
    const tailNonClosing = (from: number): number => tail.slice(from).filter((e) => e.type !== TITLE && !CLOSING.has(e.type)).length;
    const stop = this.walked - 1;
    if (stop >= 0 && (this.ends[stop] ?? GOES_ON) !== GOES_ON && stop < length) {
      const walk = this.walks[stop] as Walk;
      if (this.ends[stop] === BREAKS_UNLESS_CLOSING) {
        const rest = (this.nonClosing[length] as number) - (this.nonClosing[stop] as number) + tailNonClosing(0);
        if (rest === 0) return undefined;
      }
      return result(walk);
    }
    let walk = this.walks[length] as Walk;
    let core = length - (this.titles[length] as number);
    for (let j = 0; j < tail.length; j++) {
      const event = tail[j] as SessionEvent;
      if (event.type === TITLE) continue;
      const [end, next] = this.step(event, core, walk);
      core++;
      if (end === BREAKS) return result(walk);
      if (end === BREAKS_UNLESS_CLOSING) return tailNonClosing(j) === 0 ? undefined : result(walk);
      walk = next;
    }
    return result(walk);
  }

  /** `lastHeld` (native-cut.ts) of the cut at a line of response `id`, its reading `total` events long. */
  private lastHeld(id: string | undefined, total: number, event: (i: number) => SessionEvent): number {
    const last = total - 1;
    if (id === undefined) return last;
    if ((this.responseLines.get(id) ?? 0) <= (this.responseLinesKept.get(id) ?? 0)) return last;
    let end = last;
    while (end >= 0 && CLOSING.has(event(end).type)) end--;
    if (end === last || end < 0 || event(end).type !== 'assistant/message') return last;
    return end - 1;
  }
}
