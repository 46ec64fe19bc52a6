/**
 * The line table of skeletons already read — the reference reading the property tests compare the
 * scanner's table and the one-index cut with.
 */
import type { ClaudeCodeSkeleton } from '../native/claude-code-bytes/claude-code-skeleton.js';
import { ClaudeCodeLineTable } from '../native/claude-code-bytes/claude-code-line-table.js';
import type { LineStrings } from '../native/claude-code-bytes/line-strings.js';

/** Strings keyed in the order they are first asked for. */
class MapStrings implements LineStrings {
  private readonly keys = new Map<string, number>();
  private readonly strings: string[] = [];

  get size(): number {
    return this.strings.length;
  }

  keyOf(string: string): number {
    let key = this.keys.get(string);
    if (key === undefined) {
      key = this.strings.push(string) - 1;
      this.keys.set(string, key);
    }
    return key;
  }

  find(string: string): number {
    return this.keys.get(string) ?? -1;
  }

  string(key: number): string {
    return this.strings[key] as string;
  }
}

/** The table of `skeletons`: rows in order, lines 0, 1, …. */
export function claudeCodeLineTableOf(skeletons: readonly ClaudeCodeSkeleton[]): ClaudeCodeLineTable {
  const table = new ClaudeCodeLineTable(new MapStrings());
  skeletons.forEach((skeleton, index) => {
    table.pushSkeleton(skeleton, index, 0, 0);
  });
  return table;
}
