import { describe, expect, it } from 'vitest';
import { figureOf, meetsTarget, targetText } from './figure.js';
import { formatRatio, formatValue } from './format.js';

const spec = { workload: 'W', label: 'case', metric: 'ms', baselineLabel: 'raw' };

describe('figureOf', () => {
  it('divides each subject value by the baseline of the same round', () => {
    const figure = figureOf(spec, [10, 30, 40], [5, 10, 40]);
    expect(figure.ratio).toEqual({ min: 1, median: 2, max: 3, count: 3 });
    expect(figure.subject.median).toBe(30);
    expect(figure.baseline.median).toBe(10);
  });

  it('refuses unpaired series and a zero baseline', () => {
    expect(() => figureOf(spec, [1, 2], [1])).toThrow(/paired series/);
    expect(() => figureOf(spec, [1], [0])).toThrow(/baseline of round 1 is 0/);
  });
});

describe('meetsTarget', () => {
  it('compares the median ratio with an at-least or at-most target', () => {
    expect(meetsTarget(figureOf({ ...spec, target: { op: '>=', value: 30 } }, [40], [1]))).toBe(true);
    expect(meetsTarget(figureOf({ ...spec, target: { op: '<=', value: 1.2 } }, [1.5], [1]))).toBe(false);
    expect(meetsTarget(figureOf(spec, [1], [1]))).toBeUndefined();
  });
});

describe('a target with an absolute bound (medianAtMost)', () => {
  it('is met only when the ratio meets its bound and the subject median is at most medianAtMost; both are printed', () => {
    const target = { op: '<=', value: 1.2, medianAtMost: 50 } as const;
    expect(meetsTarget(figureOf({ ...spec, target }, [40], [40]))).toBe(true);
    // The ratio is met (1.0×) but the median is over 50 ms: not met.
    expect(meetsTarget(figureOf({ ...spec, target }, [120], [120]))).toBe(false);
    // Under 50 ms but 2× the baseline: not met.
    expect(meetsTarget(figureOf({ ...spec, target }, [40], [20]))).toBe(false);
    const text = targetText(figureOf({ ...spec, target }, [40], [40]), formatRatio, formatValue);
    expect(text).toBe(`≤ ${formatRatio(1.2)}, ≤ ${formatValue(50, 'ms')}`);
  });
});
