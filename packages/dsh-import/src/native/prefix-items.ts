/**
 * What `forEachPrefixReading` reads a chain's prefixes from, one format at a time: the items of the
 * main line of each prefix, kept as one stream that grows as the prefix does (a response written
 * over several lines grows in place), and what the import's first items (source, title) say.
 */
import type { ToolEffect } from 'dsh-codec';
import type { ImportSource } from '../import-source.js';
import type { SourceItem } from '../source-item.js';

/** The items of the main line of `chain[0..p]`, for p = 0, 1, … in turn. */
export type PrefixItems = {
  /** The main line's items (the same array throughout; items before `changedFrom` never change). */
  readonly items: readonly SourceItem[];
  /** The lowest index of `items` added or changed since the caller last set it to `items.length`. */
  changedFrom: number;
  /** The lowest index of `items` a later line may still change (`items.length` when none). */
  openFrom(): number;
  /**
   * Takes `chain[p]` in (after `chain[0..p-1]`). True when the main line of `chain[0..p]` reads as
   * `items`; else the items it reads as (`items[0..from)` then its own: a line the import leaves off
   * that prefix's line), or false: that prefix is then read whole.
   */
  advance(p: number): boolean | { items: readonly SourceItem[]; from: number };
  /** What the import's source record says of `chain[0..p]`, and the time of the first items. */
  source(): { source: ImportSource; createdAt: number | undefined };
  /** Keys of the entries compactions keep from (`EventWriter`'s `keyed`), for the whole chain. */
  readonly keyed: ReadonlySet<string>;
  readonly effectOf: (name: string) => ToolEffect;
};
