import { describe, expect, it } from 'vitest';
import { percentile, summarize } from './summarize.js';

describe('summarize', () => {
  it('reports min, median and max of an odd count', () => {
    expect(summarize([5, 1, 3])).toEqual({ min: 1, median: 3, max: 5, count: 3 });
  });

  it('takes the mean of the middle two as the median of an even count', () => {
    expect(summarize([4, 1, 2, 10]).median).toBe(3);
  });

  it('refuses no samples and non-finite samples', () => {
    expect(() => summarize([])).toThrow(/at least one sample/);
    expect(() => summarize([1, Number.NaN])).toThrow(/finite/);
  });
});

describe('percentile', () => {
  it('interpolates between ranks of sorted samples', () => {
    expect(percentile([10, 20, 30, 40, 50], 0.5)).toBe(30);
    expect(percentile([0, 100], 0.99)).toBeCloseTo(99);
    expect(percentile([7], 0.99)).toBe(7);
  });

  it('refuses p outside [0, 1]', () => {
    expect(() => percentile([1], 1.5)).toThrow(/p in \[0, 1\]/);
  });
});
