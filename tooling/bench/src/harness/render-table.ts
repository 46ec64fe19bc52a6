import { meetsTarget, targetText, type Figure } from './figure.js';
import { formatRatio, formatValue } from './format.js';
import type { FactTable, Section } from './report.js';

/** Cells of one figure: case, ratio median [min – max], target, subject and baseline medians. */
export function figureCells(figure: Figure): string[] {
  const met = meetsTarget(figure);
  const target = figure.target ? `${targetText(figure, formatRatio, formatValue)}${met === undefined ? '' : met ? ' ✓' : ' ✗'}` : '';
  return [
    figure.label,
    `${formatRatio(figure.ratio.median)} [${formatRatio(figure.ratio.min)} – ${formatRatio(figure.ratio.max)}]`,
    target,
    formatValue(figure.subject.median, figure.metric),
    `${formatValue(figure.baseline.median, figure.metric)} (${figure.baselineLabel})`,
  ];
}

/** Header of the figure table, shared by the console and the markdown report. */
export const FIGURE_HEADERS = ['case', 'ratio median [min – max]', 'target', 'dsh / peer (median)', 'baseline (median)'];

/** A section as fixed-width text for the terminal. */
export function renderSectionText(section: Section): string {
  const parts = [`\n== ${section.title}`];
  if (section.figures.length > 0) {
    parts.push(textTable(FIGURE_HEADERS, section.figures.map(figureCells)));
  }
  for (const table of section.tables ?? []) {
    parts.push(`-- ${table.caption}`, textTable(table.headers, table.rows));
  }
  return parts.join('\n');
}

/** Columns padded to their widest cell, separated by two spaces. */
export function textTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((width) => '-'.repeat(width))), ...rows.map(line)].join('\n');
}

/** A fact table as text. */
export function renderFactTableText(table: FactTable): string {
  return textTable(table.headers, table.rows);
}
