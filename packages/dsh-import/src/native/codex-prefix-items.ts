/**
 * `codexPrefixItems`: a Codex rollout's prefixes for `forEachPrefixReading`. A rollout is one line,
 * read in order: every prefix's items are the reader's items after its last line.
 */
import { CodexItems } from '../codex/read-codex.js';
import { codexEffectOf } from '../codex/codex-effects.js';
import { sourceOf } from '../import-transcript.js';
import { WarningTally } from '../source-item.js';
import type { NativeLine } from './native-line.js';
import type { PrefixItems } from './prefix-items.js';

/** The prefixes of `chain` (a whole rollout, lines in file order). */
export function codexPrefixItems(chain: readonly NativeLine[]): PrefixItems {
  const first = chain[0];
  const reader = new CodexItems(first === undefined ? undefined : { line: 1, value: first.value }, new WarningTally());
  return {
    items: reader.items,
    get changedFrom() {
      return reader.changedFrom;
    },
    set changedFrom(value: number) {
      reader.changedFrom = value;
    },
    openFrom: () => reader.openFrom(),
    advance: (p) => {
      reader.add({ line: p + 1, value: (chain[p] as NativeLine).value });
      return true;
    },
    source: () => ({ source: sourceOf('codex', reader), createdAt: reader.createdAt }),
    keyed: new Set(),
    effectOf: codexEffectOf,
  };
}
