import { describe, expect, it } from 'vitest';
import { terminalBody, terminalLine } from './terminal-text.js';

describe('terminal text', () => {
  it('shows C0, DEL, C1 and bidi overrides escaped, the rest as it is', () => {
    expect(terminalLine('a\u001b]0;t\u0007b\u001b[2J\u009b31m\u202e\u2066\u007fé✓')).toBe(
      'a\\x1b]0;t\\x07b\\x1b[2J\\x9b31m\\u202e\\u2066\\x7fé✓',
    );
  });

  it('a line escapes newline, tab and carriage return; a body keeps newline and tab', () => {
    expect(terminalLine('a\nb\tc\rd')).toBe('a\\x0ab\\x09c\\x0dd');
    expect(terminalBody('a\nb\tc\rd')).toBe('a\nb\tc\\x0dd');
  });
});
