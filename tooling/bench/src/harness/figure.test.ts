import { describe, expect, it } from 'vitest';
import { figureOf, meetsTarget } from './figure.js';

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
