/**
 * `forEachPrefixReading`: dsh's reading of every prefix `chain[0..p]` of a file's main line — what
 * `eventsOfLines(format, chain.slice(0, p + 1))` returns — in one pass: the items grow line by line
 * (`PrefixItems`), one `EventWriter` writes them as they come (back to a mark when a response it
 * wrote grows), and each prefix's reading is the events written so far plus what `finish` would add.
 * A prefix whose main line is not the items (and the first 20, where the import recognises the
 * format) is read whole; so is every prefix of a chain none of the formats' rules fit.
 */
import type { SessionEvent } from 'dsh-codec';
import { headItems, promptTitleOf } from '../import-transcript.js';
import type { SourceItem } from '../source-item.js';
import { EventWriter, type WriterMark } from '../write-events.js';
import { claudeCodePrefixItems } from './claude-code-prefix-items.js';
import { codexPrefixItems } from './codex-prefix-items.js';
import { eventsOfLines } from './cut-events.js';
import type { NativeFormat } from './native-format.js';
import type { NativeLine } from './native-line.js';
import { piPrefixItems } from './pi-prefix-items.js';
import type { PrefixItems } from './prefix-items.js';

/**
 * One prefix's reading. `written`: the events are `base[0..length)` then `tail` (`base` is the
 * writer's own array, valid during the visit only), and `base[0..stable)` are the very events of
 * the previous prefix's reading; the next prefix's reading leaves `base[0..keep)` as they are (a
 * caller keeping this reading to compare with the next keeps the events from `keep` on). `whole`:
 * read by `eventsOfLines`.
 */
export type PrefixReading =
  | { kind: 'written'; base: readonly SessionEvent[]; length: number; tail: readonly SessionEvent[]; stable: number; keep: number }
  | { kind: 'whole'; events: SessionEvent[] };

/** How much work a pass did: prefixes read whole, and items written (re-writes after a mark included). */
export type PrefixWork = { whole: number; itemsWritten: number };

// The import recognises the format from the first 20 lines: prefixes shorter than that are read whole.
const RECOGNISED_AFTER = 20;

function prefixItemsOf(format: NativeFormat, chain: readonly NativeLine[]): PrefixItems | undefined {
  switch (format.format) {
    case 'codex':
      return codexPrefixItems(chain);
    case 'pi':
      return piPrefixItems(chain);
    case 'claude-code':
      return claudeCodePrefixItems(chain);
  }
}

/**
 * Calls `visit` with the reading of `chain[0..p]` for p = 0 … chain.length - 1, in turn, until a
 * visit returns true (the pass stops there); returns the work done.
 */
export function forEachPrefixReading(
  format: NativeFormat,
  chain: readonly NativeLine[],
  visit: (p: number, reading: PrefixReading) => unknown,
  options: { whole?: boolean } = {},
): PrefixWork {
  const work: PrefixWork = { whole: 0, itemsWritten: 0 };
  const whole = (p: number): PrefixReading => {
    work.whole++;
    return { kind: 'whole', events: eventsOfLines(format, chain.slice(0, p + 1)) };
  };
  const prefix = options.whole === true ? undefined : prefixItemsOf(format, chain);
  if (prefix === undefined) {
    for (let p = 0; p < chain.length; p++) if (visit(p, whole(p)) === true) break;
    return work;
  }
  const { items } = prefix;
  let writer = new EventWriter(prefix.effectOf, prefix.keyed);
  let headKey = '';
  // The writer's mark before each item it wrote, and how many it wrote.
  let marks: WriterMark[] = [];
  let fed = 0;
  // Title facts of the items: whether one is a title, the first prompt's title (items before `scanned` never change).
  let scanned = 0;
  let hasTitle = false;
  let promptTitle: string | undefined;
  // How many of the writer's first events are as they were at the last written visit.
  let untouched = 0;
  for (let p = 0; p < chain.length; p++) {
    const natural = prefix.advance(p);
    for (; scanned < items.length; scanned++) {
      const item = items[scanned] as SourceItem;
      if (item.kind === 'title') hasTitle = true;
      promptTitle ??= promptTitleOf(item);
    }
    const { source, createdAt } = prefix.source();
    const head = headItems(source, createdAt, hasTitle, () => promptTitle);
    const key = JSON.stringify(head);
    if (key !== headKey) {
      // What the session starts with changed (a title, a link, its time): written again from the start.
      headKey = key;
      writer = new EventWriter(prefix.effectOf, prefix.keyed);
      for (const item of head) writer.feed(item);
      marks = [];
      fed = 0;
      untouched = 0;
    } else if (prefix.changedFrom < fed) {
      const mark = marks[prefix.changedFrom] as WriterMark;
      writer.rollback(mark);
      marks.length = prefix.changedFrom;
      fed = prefix.changedFrom;
      untouched = Math.min(untouched, mark.events);
    }
    for (; fed < items.length; fed++) {
      marks.push(writer.mark());
      writer.feed(items[fed] as SourceItem);
      work.itemsWritten++;
    }
    prefix.changedFrom = items.length;
    if (natural === false || p < RECOGNISED_AFTER) {
      if (visit(p, whole(p)) === true) break;
      continue;
    }
    const stable = Math.min(untouched, writer.events.length);
    const open = prefix.openFrom();
    let keep = open < fed ? (marks[open] as WriterMark).events : writer.events.length;
    if (natural === true) {
      const tail = writer.finishedTail();
      if (visit(p, { kind: 'written', base: writer.events, length: writer.events.length, tail, stable, keep }) === true) break;
      untouched = writer.events.length;
      continue;
    }
    // This prefix reads other items from `natural.from` on: written from the mark there, then the
    // writer goes back there and writes the main items again.
    const mark = marks[natural.from] as WriterMark;
    writer.rollback(mark);
    for (let i = natural.from; i < natural.items.length; i++) {
      writer.feed(natural.items[i] as SourceItem);
      work.itemsWritten++;
    }
    const tail = writer.finishedTail();
    keep = Math.min(keep, mark.events);
    const stop = visit(p, {
      kind: 'written',
      base: writer.events,
      length: writer.events.length,
      tail,
      stable: Math.min(stable, mark.events),
      keep,
    });
    if (stop === true) break;
    writer.rollback(mark);
    marks.length = natural.from;
    for (fed = natural.from; fed < items.length; fed++) {
      marks.push(writer.mark());
      writer.feed(items[fed] as SourceItem);
      work.itemsWritten++;
    }
    untouched = mark.events;
  }
  return work;
}
