import { meetsTarget, targetText } from './figure.js';
import { formatRatio, formatValue } from './format.js';
import { FIGURE_HEADERS, figureCells } from './render-table.js';
import type { FactTable, Report, Section } from './report.js';

/** The whole `docs/benchmarks.md`: method, machine, versions, targets, then each workload. */
export function renderMarkdown(report: Report): string {
  const { machine } = report;
  const out: string[] = [
    '# Benchmarks',
    '',
    `Written by \`pnpm bench${report.quick ? ' --quick' : ''}\` on ${machine.date}. Regenerate it rather than editing it.`,
    '',
    '## How to read these figures',
    '',
    '- Every figure is a **ratio**: the dsh (or peer) measurement divided by a **baseline measured in the same run**',
    '  on the same disk — raw `fdatasync`, raw `JSON.parse`, a plain file copy. The machine is shared and noisy;',
    '  ratios cancel most of that noise, absolute numbers do not.',
    `- Each case runs ${report.runs} repetitions (histories of 100 000 events: at most 3); a repetition runs the baseline and the subjects back to back, rotating`,
    '  which goes first. The ratio is taken per repetition and reported as **median [min – max]**.',
    '- Absolute medians are printed beside each ratio for context only.',
    '- `✓`/`✗` compares the median ratio with the target of the issue that asked for the benchmark.',
    '- Benchmarks are not tests: no test asserts on timing.',
    '',
    '## Machine',
    '',
    mdTable(
      ['', ''],
      [
        ['date', machine.date],
        ['OS', machine.os],
        ['CPU', `${machine.cpu} × ${machine.cores} logical cores`],
        ['memory', `${machine.memoryGiB} GiB`],
        ['load average at start (1 min)', machine.loadAverage.toFixed(2)],
        ['Node / V8', `${machine.node} / ${machine.v8}`],
        ['file system of the data directory', machine.fileSystem],
        ['commit', machine.commit],
        ['dsh code', machine.dshCode],
        ['mode', report.quick ? 'quick (`--quick`: fewer repetitions, smaller histories)' : 'full'],
        ['repetitions per case', String(report.runs)],
        ['wall time', `${Math.round(report.seconds)} s`],
      ],
    ),
    '',
    '## Versions',
    '',
    mdTable(
      ['package', 'version'],
      Object.entries(report.versions).map(([name, version]) => [name, version]),
    ),
    '',
  ];
  const targeted = report.sections.flatMap((section) => section.figures.filter((figure) => figure.target));
  if (targeted.length > 0) {
    out.push(
      '## Targets',
      '',
      mdTable(
        ['workload', 'case', 'median ratio', 'target', 'met'],
        targeted.map((figure) => {
          return [
            figure.workload,
            figure.label,
            formatRatio(figure.ratio.median),
            targetText(figure, formatRatio, formatValue),
            meetsTarget(figure) ? 'yes' : 'no',
          ];
        }),
      ),
      '',
    );
  }
  for (const section of report.sections) out.push(...renderSection(section));
  return `${out.join('\n').trimEnd()}\n`;
}

function renderSection(section: Section): string[] {
  const out = [`## ${section.title}`, '', section.method.trim(), ''];
  if (section.figures.length > 0) out.push(mdTable(FIGURE_HEADERS, section.figures.map(figureCells)), '');
  for (const table of section.tables ?? []) out.push(...renderFactTable(table));
  if (section.notes && section.notes.length > 0) {
    out.push(...section.notes.map((note) => `- ${note}`), '');
  }
  return out;
}

function renderFactTable(table: FactTable): string[] {
  return [`**${table.caption}**`, '', mdTable(table.headers, table.rows), ''];
}

/** A GitHub-flavoured markdown table; `|` inside cells is escaped. */
export function mdTable(headers: readonly string[], rows: readonly (readonly string[])[]): string {
  const cell = (text: string): string => text.replaceAll('|', '\\|').replaceAll('\n', ' ');
  const line = (cells: readonly string[]): string => `| ${cells.map(cell).join(' | ')} |`;
  return [line(headers), line(headers.map(() => '---')), ...rows.map(line)].join('\n');
}
