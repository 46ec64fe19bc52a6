import { describe, expect, it } from 'vitest';
import { figureOf } from './figure.js';
import type { MachineInfo } from './machine-info.js';
import { mdTable, renderMarkdown } from './render-markdown.js';
import type { Report } from './report.js';

const machine: MachineInfo = {
  date: '2026-11-30T12:00:00.000Z',
  os: 'Debian GNU/Linux 12 (Linux 6.1)',
  cpu: 'Test CPU',
  cores: 2,
  memoryGiB: 24,
  loadAverage: 1.5,
  node: 'v20.20.2',
  v8: '11.3',
  fileSystem: 'ext4',
  commit: 'abc1234',
  dshCode: 'built `dist/`',
};

const report: Report = {
  machine,
  versions: { 'dsh-session': '0.1.0', '@langchain/langgraph': '1.7.3' },
  quick: false,
  runs: 5,
  seconds: 421,
  sections: [
    {
      title: '3. Fork',
      method: 'Forks at the cut.',
      figures: [
        figureOf(
          { workload: 'Fork', label: 'cold, 1,000 events', metric: 'ms', baselineLabel: 'copy + fsync', target: { op: '<=', value: 1.2 } },
          [2, 3, 4],
          [2, 2, 2],
        ),
      ],
      tables: [{ caption: 'Capabilities', headers: ['peer', 'cut'], rows: [['pi', 'entry | message']] }],
      notes: ['Parent file 350 KiB.'],
    },
  ],
};

describe('renderMarkdown', () => {
  it('writes the machine, the versions, the date and every figure as a ratio with min and max', () => {
    const text = renderMarkdown(report);
    expect(text).toContain('| CPU | Test CPU × 2 logical cores |');
    expect(text).toContain('| dsh-session | 0.1.0 |');
    expect(text).toContain('| dsh code | built `dist/` |');
    expect(text).toContain('| @langchain/langgraph | 1.7.3 |');
    expect(text).toContain('2026-11-30T12:00:00.000Z');
    expect(text).toContain('| cold, 1,000 events | 1.50× [1.00× – 2.00×] | ≤ 1.20× ✗ | 3.00 ms | 2.00 ms (copy + fsync) |');
    expect(text).toContain('| Fork | cold, 1,000 events | 1.50× | ≤ 1.20× | no |');
    expect(text).toContain('- Parent file 350 KiB.');
    expect(text.endsWith('\n')).toBe(true);
  });

  it('says when the figures come from a quick run', () => {
    expect(renderMarkdown({ ...report, quick: true })).toContain('`pnpm bench --quick`');
  });
});

describe('mdTable', () => {
  it('escapes pipes and flattens newlines inside cells', () => {
    expect(mdTable(['a'], [['x | y\nz']])).toBe('| a |\n| --- |\n| x \\| y z |');
  });
});
