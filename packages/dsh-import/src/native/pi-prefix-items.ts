/**
 * `piPrefixItems`: a pi file's prefixes for `forEachPrefixReading`. On a chain whose entries each
 * follow the one before it (version 1, or a version 2/3 line of ids), the main line of a prefix is
 * its entries through the last message, and each entry's items are its own (a compaction keeps from
 * an entry before it): a prefix's items are those of its main line's entries in order.
 */
import { sourceOf } from '../import-transcript.js';
import { addPiEntryItems, piEntries, piHeaderItem } from '../pi/read-pi.js';
import { piEffectOf } from '../pi/pi-effects.js';
import { asString } from '../read-transcript.js';
import { timeOf, WarningTally, type SourceItem } from '../source-item.js';
import { keyedItems } from '../write-events.js';
import type { NativeLine } from './native-line.js';
import type { PrefixItems } from './prefix-items.js';

/** The prefixes of `chain` (the header, then the main line's lines); undefined when the entries are not one line as above. */
export function piPrefixItems(chain: readonly NativeLine[]): PrefixItems | undefined {
  const tally = new WarningTally();
  const header = chain[0]?.value ?? {};
  // Numbered as the import of a prefix numbers them: 1.. in chain order.
  const rest = chain.slice(1).map((line, position) => ({ line: position + 2, value: line.value }));
  const { entries, nodes } = piEntries(rest, tally);
  const lineOfId = new Map(entries.map((entry) => [entry.key, entry.line]));
  // Each entry's parent is the one before it, no key is written twice, a compaction keeps from an entry at or before it.
  for (let i = 0; i < nodes.length; i++) {
    const node = nodes[i] as (typeof nodes)[number];
    const expected = i === 0 ? undefined : (nodes[i - 1] as (typeof nodes)[number]).key;
    const linked = i === 0 ? node.parent === undefined || !lineOfId.has(node.parent) : node.parent === expected;
    const entry = entries[i] as (typeof entries)[number];
    if (!linked || node.key.endsWith('+')) return undefined;
    if (entry.value.type === 'compaction') {
      const keepId = asString(entry.value.firstKeptEntryId);
      const keepIndex = entry.value.firstKeptEntryIndex;
      const target = keepId !== undefined ? lineOfId.get(keepId) : typeof keepIndex === 'number' ? keepIndex + 1 : undefined;
      if (target !== undefined && target > entry.line) return undefined;
    }
  }
  const itemsOfEntry = entries.map((entry) => {
    const own: SourceItem[] = [];
    addPiEntryItems(own, entry, entries, lineOfId, tally);
    return own;
  });
  // The entry each chain position holds (-1 for a line the import drops).
  const entryAt = new Int32Array(chain.length).fill(-1);
  entries.forEach((entry, index) => {
    entryAt[entry.line - 1] = index;
  });
  const items: SourceItem[] = [];
  const config = piHeaderItem(header, rest[0]);
  let fed = 0;
  let message = false;
  const prefix: PrefixItems = {
    items,
    changedFrom: 0,
    openFrom: () => items.length,
    advance: (p) => {
      if (p === 0) return false;
      if (p === 1 && config !== undefined) items.push(config);
      const index = entryAt[p] as number;
      if (index < 0) return true;
      const isMessage = (entries[index] as (typeof entries)[number]).value.type === 'message';
      // The main line ends at the last message (at the last entry while there is none).
      if (isMessage || !message) {
        for (; fed <= index; fed++) for (const item of itemsOfEntry[fed] as SourceItem[]) items.push(item);
      }
      message ||= isMessage;
      return true;
    },
    source: () => ({
      source: sourceOf('pi', { sessionId: asString(header.id), links: {} }),
      createdAt: timeOf(header.timestamp),
    }),
    keyed: keyedItems(itemsOfEntry.flat()),
    effectOf: piEffectOf,
  };
  return prefix;
}
