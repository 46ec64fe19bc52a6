import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { shellQuote } from './shell-quote.js';

test('plain paths print as they are', () => {
  expect(shellQuote('/tmp/dsh-demo/data')).toBe('/tmp/dsh-demo/data');
});

test('any word reaches a real shell unchanged (spaces, quotes, $, backslashes, newlines)', () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 30 }).filter((word) => !word.includes('\u0000')),
      (word) => {
        const echoed = execFileSync('sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' });
        expect(echoed).toBe(word);
      },
    ),
    { numRuns: 60 },
  );
});
