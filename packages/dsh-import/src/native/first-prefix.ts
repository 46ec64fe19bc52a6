/**
 * `firstPrefixWhere`: the shortest prefix `chain[0..p]` of a file's main line whose reading passes
 * a test that holds for every longer prefix once it holds — found in one pass of
 * `forEachPrefixReading` (each test taking only what changed since the previous prefix), where a
 * binary search read O(log n) prefixes whole, each as long as the file (issue 40: a `seq:N` cut of
 * a 15 MB pi file peaked at 33.9× its size). The two tests `nativeCut` searches with: the last
 * event that is not a step or turn end (`heldThrough`) and the first core events agreeing with the
 * whole line's reading (`AgreesThrough`).
 * @module
 */
import type { SessionEvent } from 'dsh-codec';
import { CLOSING, sameEvent, TITLE } from './cut-events.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';
import { forEachPrefixReading, type PrefixReading } from './prefix-readings.js';

/** A test of prefix readings, asked for p = 0, 1, … in turn. */
export type PrefixTest = (p: number, reading: PrefixReading) => boolean;

/** How much reading a search did: prefixes read whole (by `eventsOfLines`), and prefixes visited. */
export type SearchWork = { whole: number; visited: number };

// The import recognises the format from the first 20 lines (`forEachPrefixReading` reads those whole).
const RECOGNISED_AFTER = 20;

/**
 * The first p whose prefix passes `test` (chain.length - 1 when none does, as a binary search over
 * the chain ends), or undefined when a prefix past the first 20 has to be read whole (the formats'
 * rules do not fit this chain: the caller searches the old way).
 */
export function firstPrefixWhere(
  format: NativeFormat,
  chain: readonly NativeLine[],
  test: PrefixTest,
  work: SearchWork = { whole: 0, visited: 0 },
): number | undefined {
  // Where the test first passed; 'unfitted' when a prefix had to be read whole.
  let found: number | 'unfitted' | undefined;
  const done = forEachPrefixReading(format, chain, (p, reading) => {
    work.visited++;
    if (reading.kind === 'whole' && p >= RECOGNISED_AFTER) {
      found = 'unfitted';
      return true;
    }
    if (!test(p, reading)) return false;
    found = p;
    return true;
  });
  work.whole += done.whole;
  if (found === 'unfitted') return undefined;
  return found ?? chain.length - 1;
}

/** The event at `i` of `reading`, and its length. */
function eventsOf(reading: PrefixReading): { length: number; at: (i: number) => SessionEvent } {
  if (reading.kind === 'whole') return { length: reading.events.length, at: (i) => reading.events[i] as SessionEvent };
  const { base, length, tail } = reading;
  return { length: length + tail.length, at: (i) => (i < length ? base[i] : tail[i - length]) as SessionEvent };
}

/** Whether the last event of a prefix's reading that is not a step or turn end is at `n` or later. */
export function heldThrough(n: number): PrefixTest {
  return (_p, reading) => {
    const { length, at } = eventsOf(reading);
    let last = length - 1;
    while (last >= 0 && CLOSING.has(at(last).type)) last--;
    return last >= n;
  };
}

/**
 * `agrees` of native-cut.ts as a prefix test: a prefix's reading holds at least `count` events that
 * are not titles, and the first `count` of them are the whole line's (`reference`, whose non-title
 * positions are `referenceCore`). Kept per event of the writer's events and taken again only from
 * where they changed.
 */
export class AgreesThrough {
  // Before each event of the writer's events (valid through `valid`): non-title events, and whether one of the first `count` differed.
  private readonly cores: number[] = [0];
  private readonly differed: boolean[] = [false];
  private valid = 0;
  private base: readonly SessionEvent[] | undefined;

  constructor(
    private readonly reference: readonly SessionEvent[],
    private readonly referenceCore: readonly number[],
    private readonly count: number,
  ) {}

  readonly test: PrefixTest = (_p, reading) => {
    if (reading.kind === 'whole') {
      this.base = undefined;
      return this.walk(reading.events, 0, reading.events.length, 0, false);
    }
    const { base, length, stable, tail } = reading;
    const from = base === this.base ? Math.min(this.valid, stable) : 0;
    this.base = base;
    this.cores.length = from + 1;
    this.differed.length = from + 1;
    for (let i = from; i < length; i++) {
      const [core, differed] = this.step(base[i] as SessionEvent, this.cores[i] as number, this.differed[i] as boolean);
      this.cores.push(core);
      this.differed.push(differed);
    }
    this.valid = length;
    return this.walk(tail, 0, tail.length, this.cores[length] as number, this.differed[length] as boolean);
  };

  /** The state after `event`, from the state before it. */
  private step(event: SessionEvent, core: number, differed: boolean): [number, boolean] {
    if (event.type === TITLE) return [core, differed];
    if (core >= this.count || differed) return [core + 1, differed];
    const line = this.reference[this.referenceCore[core] as number] as SessionEvent;
    return [core + 1, !sameEvent(event, line)];
  }

  /** Whether the reading passes after `events[from..to)` from the state (`core`, `differed`). */
  private walk(events: readonly SessionEvent[], from: number, to: number, core: number, differed: boolean): boolean {
    let state: [number, boolean] = [core, differed];
    for (let i = from; i < to; i++) state = this.step(events[i] as SessionEvent, state[0], state[1]);
    return state[0] >= this.count && !state[1];
  }
}
