import { describe, expect, it } from 'vitest';
import { pasteFilter } from './paste-filter.js';

function run(chunks: string[]): { typed: string; notices: string[]; expand: (line: string) => string } {
  const notices: string[] = [];
  const filter = pasteFilter((message) => notices.push(message));
  let typed = '';
  filter.input.on('data', (chunk: string) => (typed += chunk));
  for (const chunk of chunks) filter.write(chunk);
  return { typed, notices, expand: filter.expand };
}

describe('pasteFilter', () => {
  it('turns a multi-line paste into one placeholder, even with its markers split across chunks, and expands it on submit', () => {
    const { typed, expand } = run(['ask: \u001B[2', '00~one\rtwo\r\nthree\r\u001B[20', '1~ end']);
    expect(typed).toBe('ask: [paste #1: 14 chars, 3 lines] end');
    expect(expand(typed)).toBe('ask: one\ntwo\nthree\n end');
  });

  it('types a short single-line paste into the line as it is', () => {
    expect(run(['\u001B[200~hello there\u001B[201~']).typed).toBe('hello there');
  });

  it('passes keystrokes outside a paste through untouched, escape sequences included', () => {
    expect(run(['ab\u001B[D', 'c\u0003']).typed).toBe('ab\u001B[Dc\u0003');
  });

  it('leaves a placeholder-looking text the user typed alone', () => {
    expect(run([]).expand('[paste #7: 3 chars, 1 line]')).toBe('[paste #7: 3 chars, 1 line]');
  });
});
