/**
 * The line table of skeletons already read — the reference reading the property tests compare the
 * scanners' tables and the one-index cut with.
 */
import { ByteStringTable } from '../native/byte-string-table.js';
import type { ClaudeCodeSkeleton } from '../native/claude-code-skeleton.js';
import { ClaudeCodeLineTable } from '../native/claude-code-line-table.js';

/** The table of `skeletons`: rows in order, lines 0, 1, …. */
export function claudeCodeLineTableOf(skeletons: readonly ClaudeCodeSkeleton[]): ClaudeCodeLineTable {
  const table = new ClaudeCodeLineTable(new ByteStringTable(new Uint8Array(0)));
  skeletons.forEach((skeleton, index) => {
    table.pushSkeleton(skeleton, index, 0, 0);
  });
  return table;
}
