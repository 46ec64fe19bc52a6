/**
 * @module fit-table
 * Aligned columns that fit the terminal (SPEC §25): `COLUMNS`, else a terminal's width; piped output
 * with no `COLUMNS` keeps every cell whole. Long cells (titles, paths) are cut with `…`, then whole
 * columns dropped, never an id.
 */
import type { CliContext } from './cli-context.js';
import { terminalLine } from './terminal-text.js';

/** The width to fit: a positive `COLUMNS`, else the terminal's columns when stdout is one, else none. */
export function outputWidth(context: CliContext): number | undefined {
  const columns = context.env.COLUMNS;
  if (columns !== undefined && /^\d+$/.test(columns.trim()) && Number(columns) > 0) return Number(columns);
  const stdout = context.stdout as { isTTY?: boolean; columns?: number };
  return stdout.isTTY === true && typeof stdout.columns === 'number' && stdout.columns > 0 ? stdout.columns : undefined;
}

/** How a table may give way: columns whose cells may be cut (widest first), then columns to drop (in order). */
export type FitRules = { shrink: readonly number[]; drop: readonly number[] };

const GAP = 2;
const MIN_CELL = 6;

function cut(cell: string, width: number): string {
  return cell.length <= width ? cell : `${cell.slice(0, Math.max(0, width - 1))}…`;
}

/** `header` and `rows` as aligned columns, every line at most `width` long when one is given. */
export function fitTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  width: number | undefined,
  rules: FitRules,
): string {
  let columns = header.map((_, index) => index);
  const cells = [header, ...rows].map((row) => row.map((cell) => terminalLine(cell)));
  const natural = columns.map((column) => Math.max(...cells.map((row) => (row[column] ?? '').length)));
  const widths = [...natural];
  const total = () => columns.reduce((sum, column) => sum + (widths[column] ?? 0), 0) + GAP * (columns.length - 1);
  if (width !== undefined) {
    // Cut the widest shrinkable column one character at a time, down to MIN_CELL each.
    for (;;) {
      if (total() <= width) break;
      const widest = rules.shrink
        .filter((column) => columns.includes(column) && (widths[column] ?? 0) > MIN_CELL)
        .sort((a, b) => (widths[b] ?? 0) - (widths[a] ?? 0))[0];
      if (widest !== undefined) {
        widths[widest] = (widths[widest] ?? 0) - 1;
        continue;
      }
      const dropped = rules.drop.find((column) => columns.includes(column));
      if (dropped === undefined) break;
      columns = columns.filter((column) => column !== dropped);
    }
    // A dropped column may have freed more than was needed: give it back to the cut cells.
    for (const column of rules.shrink) {
      if (!columns.includes(column)) continue;
      const room = width - total();
      if (room > 0) widths[column] = Math.min(natural[column] ?? 0, (widths[column] ?? 0) + room);
    }
  }
  const lines = cells.map((row) =>
    columns
      .map((column) => cut(row[column] ?? '', widths[column] ?? 0).padEnd(widths[column] ?? 0))
      .join(' '.repeat(GAP))
      .trimEnd(),
  );
  return `${lines.join('\n')}\n`;
}
