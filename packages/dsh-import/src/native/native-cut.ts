/**
 * Where a native fork cuts: REF (the tool's own entry id) or `seq:N` (an event of dsh's reading)
 * → the source lines the child keeps, and dsh's events through the cut, read by `importTranscript`
 * from exactly those lines — so the closers follow from the same reading `dsh import` makes.
 */
import type { SessionEvent } from 'dsh-codec';
import { ImportError } from '../import-error.js';
import { CLOSING, corePositions, eventsOfLines, sameEvent, TITLE } from './cut-events.js';
import { AgreesThrough, firstPrefixWhere, heldThrough, type SearchWork } from './first-prefix.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';

/** The lines a cut keeps and dsh's events through it (`cut` = the last event's seq, -1 for none). */
export type NativeCut = { kept: NativeLine[]; events: SessionEvent[]; cut: number };

// Events that may follow the cut inside the entry that holds it: a call's start (then it is
// closed as not started) and closing brackets (the closer closes them again as forked).
const SPLITTABLE = new Set(['tool/call', 'step/end', 'turn/end']);

/** Whether `a` and `b` hold the same lines in the same order. */
function sameLines(a: readonly NativeLine[], b: readonly NativeLine[]): boolean {
  return a.length === b.length && a.every((line, position) => line === b[position]);
}

/** Whether the first `count` non-title events of `events` are those of `reference`. */
function agrees(
  events: readonly SessionEvent[],
  reference: readonly SessionEvent[],
  referenceCore: readonly number[],
  count: number,
): boolean {
  const core = corePositions(events);
  if (core.length < count) return false;
  for (let i = 0; i < count; i++)
    if (!sameEvent(events[core[i] as number] as SessionEvent, reference[referenceCore[i] as number] as SessionEvent)) return false;
  return true;
}

/**
 * How `nativeCut` searches the prefixes of a main line for a `seq:N` cut: one pass (pi and Codex), or
 * (`bisect`) the binary search reading each prefix it tries whole — the reference the pass is tested
 * against. `work` counts the prefixes read. @internal
 */
export type CutSearch = { bisect?: boolean; work?: SearchWork };

/**
 * The first p in 0..chain.length - 1 whose prefix passes `test` (chain.length - 1 when none does):
 * one pass over the prefixes (pi, Codex), or a binary search reading the ones it tries whole
 * (`bisect`, Claude Code, and a chain the formats' prefix rules do not fit).
 */
function searchPrefixes(
  format: NativeFormat,
  chain: readonly NativeLine[],
  test: Parameters<typeof firstPrefixWhere>[2],
  search: CutSearch,
): number {
  const work = search.work ?? { whole: 0, visited: 0 };
  // Claude Code's tests do not only grow with the prefix (a response grows in place over its lines): there the
  // first prefix that passes may come before the one the binary search lands on, so its cuts keep the search.
  const onePass = search.bisect !== true && format.format !== 'claude-code';
  const found = onePass ? firstPrefixWhere(format, chain, test, work) : undefined;
  if (found !== undefined) return found;
  let low = 0;
  let high = chain.length - 1;
  while (low < high) {
    const middle = Math.floor((low + high) / 2);
    work.whole++;
    if (test(middle, { kind: 'whole', events: eventsOfLines(format, chain.slice(0, middle + 1)) })) high = middle;
    else low = middle + 1;
  }
  return low;
}

/**
 * Resolves `at` in `lines`; an unknown REF or seq is `INVALID_CUT` naming what is valid. `seq:N`
 * is the seq of an event in dsh's reading of the whole main line (what `dsh import` stores): the
 * cut keeps the shortest run of its lines whose reading holds that event whole; a seq inside an entry
 * whose reading is the main line's cuts after that entry (`cut` is then the entry's last seq).
 */
export function nativeCut(format: NativeFormat, lines: readonly NativeLine[], at: string, search: CutSearch = {}): NativeCut {
  const seq = /^seq:(\d+)$/.exec(at);
  const main = mainLineOf(format, lines);
  if (seq === null) {
    const position = format.findRef(lines, at);
    if (position === undefined)
      throw new ImportError(
        'INVALID_CUT',
        `--at ${JSON.stringify(at)} names no entry of this ${format.format} file: ${format.refHint(lines, at)}`,
      );
    const kept = format.chainTo(lines, position);
    // A cut at the main line's end keeps its chain: its reading is the main line's, read once.
    const events = format.format !== 'codex' && sameLines(kept, main.chain()) ? main.reading().slice() : eventsOfLines(format, kept);
    return { kept, events, cut: cutInReading(format, lines, kept, events, main) };
  }
  const n = Number(seq[1]);
  const chain = main.chain();
  const reference = main.reading();
  if (n >= reference.length) {
    throw new ImportError(
      'INVALID_CUT',
      `--at seq:${String(n)} is past the end: dsh reads this file's main line as seqs 0..${String(reference.length - 1)}`,
    );
  }
  const referenceCore = corePositions(reference);
  const count = referenceCore.filter((position) => position <= n).length;
  // The seq an entry's REF cut reports is a cut too: the same child, whatever the rest of the response.
  const byRef = refCutAt(format, lines, main, n, search);
  if (byRef !== undefined) return byRef;
  // The shortest prefix of the chain whose reading holds events 0..n as the whole line's reading does.
  const low = searchPrefixes(format, chain, new AgreesThrough(reference, referenceCore, count).test, search);
  const kept = chain.slice(0, low + 1);
  const events = eventsOfLines(format, kept);
  const core = corePositions(events);
  const last = core[count - 1] as number;
  const after = events.slice(last + 1).filter((event) => event.type !== TITLE);
  if (after.some((event) => !SPLITTABLE.has(event.type))) {
    // A seq inside one entry whose whole reading is the main line's (a turn's start and its prompt): the
    // tool cannot hold half an entry, so the cut is after that entry and `cut` its last seq.
    if (agrees(events, reference, referenceCore, core.length)) return { kept, events, cut: referenceCore[core.length - 1] as number };
    const first = eventsOfLines(format, kept.slice(0, -1)).length;
    throw new ImportError(
      'INVALID_CUT',
      `--at seq:${String(n)} falls inside one ${format.format} entry (line ${String((kept[kept.length - 1] as NativeLine).index + 1)}, which also holds seq ${String(first)}…${String(events.length - 1)}: ${after.map((event) => event.type).join(', ')}); the file cannot be cut there — expected seq:${String(events.length - 1)} or a seq before that entry`,
    );
  }
  return { kept, events: events.slice(0, last + 1), cut: n };
}

/** Whether `part` is the first lines of the response `whole` (one assistant message written over several lines). @internal */
export function firstPartOf(part: SessionEvent, whole: SessionEvent): boolean {
  if (part.type !== 'assistant/message' || whole.type !== 'assistant/message') return false;
  type Data = { turn: number; step: number; message: { content: readonly unknown[] } };
  const a = part.data as unknown as Data;
  const b = whole.data as unknown as Data;
  if (a.turn !== b.turn || a.step !== b.step || a.message.content.length > b.message.content.length) return false;
  return a.message.content.every((block, index) => JSON.stringify(block) === JSON.stringify(b.message.content[index]));
}

/**
 * The cut at the entry whose REF cut reports seq `n` (the first such entry of the line), when its
 * reading is the line's through `n` — except that the response `n` falls in may hold only its first
 * lines (the entry is one of several lines of one response: what follows it is after the cut).
 */
function refCutAt(format: NativeFormat, lines: readonly NativeLine[], main: MainLine, n: number, search: CutSearch): NativeCut | undefined {
  const chain = main.chain();
  const reference = main.reading();
  const referenceCore = corePositions(reference);
  const reported = (end: number): { kept: NativeLine[]; events: SessionEvent[]; cut: number } => {
    const kept = chain.slice(0, end + 1);
    const events = eventsOfLines(format, kept);
    return { kept, events, cut: cutInReading(format, lines, kept, events, main) };
  };
  // The last event a prefix's reading holds that is not a bracket its end closed grows with the prefix.
  const found = reported(searchPrefixes(format, chain, heldThrough(n), search));
  if (found.cut !== n) return undefined;
  const core = corePositions(found.events);
  for (let i = 0; i < core.length; i++) {
    const at = core[i] as number;
    const event = found.events[at] as SessionEvent;
    // Past the cut only what the child's end adds: the rest of a response it holds the first lines of, closed.
    if (at > found.cut) {
      if (CLOSING.has(event.type)) continue;
    }
    const position = referenceCore[i];
    if (position === undefined) return undefined;
    const line = reference[position] as SessionEvent;
    if (!sameEvent(event, line) && !firstPartOf(event, line)) return undefined;
  }
  return found;
}

/**
 * The last event a REF cut's child holds, from its own reading: the reading's last event, except
 * where the cut entry holds the first blocks of a response whose other lines the child leaves out (a
 * thinking or text line of a response written one line per block) and no call: the child's reading
 * closes that part with a step and turn end the file does not have there, so the cut is the event
 * before the response (its step's start), which `seq:N` takes back to the first such entry.
 */
function lastHeld(
  format: NativeFormat,
  lines: readonly NativeLine[],
  kept: readonly NativeLine[],
  events: readonly SessionEvent[],
): number {
  const last = events.length - 1;
  const line = kept[kept.length - 1];
  const id = line === undefined ? undefined : format.responseIdOf?.(line);
  if (id === undefined) return last;
  const inChild = new Set(kept);
  if (!lines.some((other) => !inChild.has(other) && format.responseIdOf?.(other) === id)) return last;
  let end = last;
  while (end >= 0 && CLOSING.has((events[end] as SessionEvent).type)) end--;
  // Only a response the child's own end closed (one with a call leaves the turn open: its call is the cut).
  if (end === last || events[end]?.type !== 'assistant/message') return last;
  return end - 1;
}

/** A file's main line: its chain and dsh's reading of it, each made once and only when asked for. */
export type MainLine = { chain(): readonly NativeLine[]; reading(): readonly SessionEvent[] };

/** The main line of `lines` (`MainLine`). */
export function mainLineOf(format: NativeFormat, lines: readonly NativeLine[]): MainLine {
  let chain: readonly NativeLine[] | undefined;
  let reading: readonly SessionEvent[] | undefined;
  const main: MainLine = {
    chain: () => {
      if (chain === undefined) {
        const leaf = format.mainLeaf(lines);
        chain = leaf < 0 ? [] : format.chainTo(lines, leaf);
      }
      return chain;
    },
    reading: () => (reading ??= eventsOfLines(format, main.chain())),
  };
  return main;
}

/**
 * The last event of `reference` that `events` holds in its place (every non-title event before it
 * the same; a response may hold only its first blocks, which alone does not count as holding it), or
 * undefined when they differ from the first event on or only by the step and turn ends the child's
 * end adds. After part of a response only its calls count.
 */
function heldInPlace(events: readonly SessionEvent[], reference: readonly SessionEvent[]): number | undefined {
  const core = corePositions(events);
  const referenceCore = corePositions(reference);
  let held: number | undefined;
  let partial = false;
  for (let i = 0; i < core.length; i++) {
    const event = events[core[i] as number] as SessionEvent;
    const position = referenceCore[i];
    if (position === undefined) break;
    // A step or turn end after part of a response is the child's own end closing it, wherever the line has one.
    if (partial && CLOSING.has(event.type)) break;
    const line = reference[position] as SessionEvent;
    if (sameEvent(event, line)) held = position;
    else if (firstPartOf(event, line)) partial = true;
    else {
      // Whole responses whose step and turn the child's end closes where the line goes on inside the turn: its own reading's.
      if (!partial && core.slice(i).every((at) => CLOSING.has((events[at] as SessionEvent).type))) return undefined;
      break;
    }
  }
  return held;
}

/**
 * The seq, in the reading of the whole line, of the last event of a REF cut's reading. Claude Code
 * (a response over several lines): for an entry on the main line, the last event its child holds in
 * place (`heldInPlace`: a tool result answering a call of a response that goes on after it holds the
 * response's first calls only, and its reading numbers what follows differently), else `lastHeld`.
 * pi: only a title can stand in a different place (pi names a session in an entry that may come
 * after the cut, and a reading without one titles it first), so the two readings are matched without
 * titles. Codex: the reading's last event.
 */
export function cutInReading(
  format: NativeFormat,
  lines: readonly NativeLine[],
  kept: readonly NativeLine[],
  events: readonly SessionEvent[],
  main: MainLine,
): number {
  if (format.format === 'codex') return events.length - 1;
  const onChain = new Set(main.chain());
  const onMain = kept.every((line) => onChain.has(line));
  if (format.format === 'claude-code') {
    const held = onMain ? heldInPlace(events, main.reading()) : undefined;
    return held ?? lastHeld(format, lines, kept, events);
  }
  if (!onMain) return events.length - 1;
  const core = corePositions(events);
  const referenceCore = corePositions(main.reading());
  const lastTitle = events[events.length - 1]?.type === TITLE;
  const mapped = referenceCore[core.length - 1];
  return mapped === undefined || lastTitle ? events.length - 1 : mapped;
}
