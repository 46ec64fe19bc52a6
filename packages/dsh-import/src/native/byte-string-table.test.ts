/**
 * `ByteStringTable`: one key per distinct string, whether the string comes as a plain token, an
 * escaped token or a value, and the string of a key as `JSON.parse` reads the token.
 */
import { Buffer } from 'node:buffer';
import { describe, expect, it } from 'vitest';
import { ByteStringTable } from './byte-string-table.js';

/** The table of `text` and the key of each string token in it, in order. */
function tokens(text: string): { table: ByteStringTable; keys: number[] } {
  const bytes = Buffer.from(text, 'utf8');
  const table = new ByteStringTable(bytes);
  const keys: number[] = [];
  for (let at = bytes.indexOf(34); at >= 0;) {
    let after = at + 1;
    while (bytes[after] !== 34 || bytes[after - 1] === 92) after++;
    keys.push(table.token(at, after + 1, bytes.subarray(at, after).includes(92)));
    at = bytes.indexOf(34, after + 1);
  }
  return { table, keys };
}

describe('ByteStringTable', () => {
  it('gives equal keys exactly to equal strings, however the token spells them', () => {
    const { table, keys } = tokens('"abc" "a\\u0062c" "abd" "é" "\\u00e9" "abc" "" "x\\"y"');
    const [abc, escaped, abd, e, eEscaped, again, empty, quote] = keys;
    expect(escaped).toBe(abc);
    expect(again).toBe(abc);
    expect(eEscaped).toBe(e);
    expect(new Set([abc, abd, e, empty, quote]).size).toBe(5);
    expect(table.keyOf('abc')).toBe(abc);
    expect(table.keyOf('é')).toBe(e);
    expect(table.keyOf('')).toBe(empty);
    expect(table.find('x"y')).toBe(quote);
    expect(table.find('abz')).toBe(-1);
    expect([abc, abd, e, empty, quote].map((key) => table.string(key as number))).toEqual(['abc', 'abd', 'é', '', 'x"y']);
  });

  it('keys a string with a lone surrogate apart from any other, and keeps many keys apart as it grows', () => {
    const { table, keys } = tokens('"\\ud800" "\\ufffd" "\\ud800"');
    expect(keys[0]).toBe(keys[2]);
    expect(keys[0]).not.toBe(keys[1]);
    expect(table.string(keys[0] as number)).toBe('\ud800');
    const many = Array.from({ length: 20_000 }, (_, i) => `id-${String(i)}`);
    const first = many.map((id) => table.keyOf(id));
    expect(new Set(first).size).toBe(many.length);
    expect(many.map((id) => table.find(id))).toEqual(first);
  });
});
