import { describe, expect, it } from 'vitest';
import { lineDiff } from './line-diff.js';

describe('lineDiff', () => {
  it('keeps common lines once and marks the rest by the text they come from', () => {
    expect(lineDiff('a\nb\nc', 'a\nx\nc\nd')).toEqual([
      { kind: ' ', text: 'a' },
      { kind: '-', text: 'b' },
      { kind: '+', text: 'x' },
      { kind: ' ', text: 'c' },
      { kind: '+', text: 'd' },
    ]);
  });

  it('diffs against an empty text as all added or all removed, and equal texts as all kept', () => {
    expect(lineDiff('', 'one\ntwo')).toEqual([
      { kind: '+', text: 'one' },
      { kind: '+', text: 'two' },
    ]);
    expect(lineDiff('one', '')).toEqual([{ kind: '-', text: 'one' }]);
    expect(lineDiff('same\ntext', 'same\ntext')?.every((line) => line.kind === ' ')).toBe(true);
  });

  it('gives up (undefined) instead of building a table for texts of thousands of lines each', () => {
    const long = Array.from({ length: 3_000 }, (_, index) => String(index)).join('\n');
    expect(lineDiff(long, `${long}\nmore`)).toBeUndefined();
  });
});
