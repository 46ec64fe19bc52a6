import { describe, expect, it } from 'vitest';
import { printableTitle } from './printable-title.js';

describe('printableTitle', () => {
  it('holds a foreign title to the API rule: controls, separators and bidi overrides become spaces, at most 200 characters', () => {
    expect(printableTitle('\u001b]0;pwned\u0007 fix\u2028the\u202etests\u009b ')).toBe(']0;pwned fix the tests');
    expect(printableTitle('x'.repeat(300))).toBe(`${'x'.repeat(199)}…`);
    expect(printableTitle('\u0000\u202e \n')).toBeUndefined();
  });
});
