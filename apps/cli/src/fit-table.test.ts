import { describe, expect, it } from 'vitest';
import { fitTable } from './fit-table.js';

const ID = '0123456789abcdef0123456789abcdef0123';
const header = ['ID', 'NAME', 'FORKED FROM', 'LAST SEQ', 'UPDATED', 'STATUS'];
const rows = [[ID, 'a title far longer than any terminal gives it '.repeat(3), `${ID}@12`, '40', '2026-12-07T09:00:00.000Z', 'stored']];
const rules = { shrink: [1, 2], drop: [2, 4, 3] };
const widest = (text: string) =>
  Math.max(
    ...text
      .trimEnd()
      .split('\n')
      .map((line) => line.length),
  );

describe('fitTable (SPEC §25: dsh sessions fits the terminal)', () => {
  it('keeps every cell whole without a width (piped output)', () => {
    expect(fitTable(header, rows, undefined, rules)).toContain(rows[0]?.[1]?.trimEnd());
  });

  it.each([200, 120, 100, 80, 60])('fits %i columns: the title cut with …, the id whole', (width) => {
    const text = fitTable(header, rows, width, rules);
    expect(widest(text)).toBeLessThanOrEqual(width);
    expect(text).toContain(ID);
    expect(text).toContain('…');
  });

  it('drops the lineage column before the status when cutting is not enough', () => {
    const text = fitTable(header, rows, 80, rules);
    expect(text).not.toContain('FORKED FROM');
    expect(text).toContain('STATUS');
  });
});
