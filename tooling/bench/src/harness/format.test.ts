import { describe, expect, it } from 'vitest';
import { formatBytes, formatMilliseconds, formatRatio, formatValue, significant } from './format.js';

describe('format', () => {
  it('writes ratios with three significant digits', () => {
    expect(formatRatio(48.237)).toBe('48.2×');
    expect(formatRatio(0.7312)).toBe('0.731×');
    expect(formatRatio(1234.5)).toBe('1 235×');
  });

  it('scales durations, sizes and rates', () => {
    expect(formatMilliseconds(0.087)).toBe('87.0 µs');
    expect(formatMilliseconds(12.34)).toBe('12.3 ms');
    expect(formatMilliseconds(1500)).toBe('1.50 s');
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.00 MiB');
    expect(formatValue(123_456, 'events/s')).toBe('123k events/s');
    expect(formatValue(2_500_000, 'events/s')).toBe('2.50M events/s');
    expect(formatValue(950, 'events/s')).toBe('950 events/s');
  });

  it('keeps zero and non-finite values readable', () => {
    expect(significant(0, 3)).toBe('0');
    expect(significant(Number.POSITIVE_INFINITY, 3)).toBe('Infinity');
  });
});
