import fc from 'fast-check';
import { expect, test } from 'vitest';
import { streamPieces } from './stream-pieces.js';

test('a sentence becomes a few word-boundary pieces', () => {
  expect(streamPieces('one two three four five six seven eight')).toEqual(['one two ', 'three four ', 'five six ', 'seven eight']);
  expect(streamPieces('short')).toEqual(['short']);
  expect(streamPieces('')).toEqual([]);
});

test('the pieces joined are the text, never more than asked for, none empty', () => {
  fc.assert(
    fc.property(fc.string({ maxLength: 200 }), fc.integer({ min: 1, max: 8 }), (text, count) => {
      const pieces = streamPieces(text, count);
      expect(pieces.join('')).toBe(text);
      expect(pieces.length).toBeLessThanOrEqual(count);
      expect(pieces.every((piece) => piece !== '')).toBe(true);
      if (text !== '') expect(pieces.length).toBeGreaterThan(0);
    }),
  );
});
