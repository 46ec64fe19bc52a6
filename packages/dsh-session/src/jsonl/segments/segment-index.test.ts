// A sealed segment's index (SPEC §24): what each line holds, answered only where the index can be exact.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fileCallsIn, indexSegmentLines, latestLineOf } from './segment-index.js';

const DIGEST = 'a'.repeat(64);
const line = (value: unknown): string => `${JSON.stringify(value)}\n`;
const call = (seq: number, name: string, args: unknown, effect = 'side-effect'): string =>
  line({
    seq,
    type: 'tool/call',
    time: 0,
    data: { turn: 1, step: 1, callId: `c${String(seq)}`, name, arguments: JSON.stringify(args), effect },
  });

/** Lines 0..6: a message whose text holds a `"type":"tool/call"`, calls, a line whose envelope is not seq-then-type. */
const bytes = Buffer.from(
  [
    line({ seq: 10, type: 'user/message', time: 0, data: { message: { content: [{ type: 'text', text: '"type":"tool/call"' }] } } }),
    call(11, 'write_file', { path: 'a.txt', content: 'x' }),
    call(12, 'list_files', {}, 'read-only'),
    line({ type: 'session/config', seq: 13, time: 0, data: { cwd: '/w' } }),
    call(14, 'write_file', { path: 'a.txt', content: 'y' }),
    call(15, 'read_file', '"not an object"', 'read-only'),
    call(16, 'Edit', { file_path: '/w/b.ts', notebook_path: 'n.ipynb' }),
  ].join(''),
);

describe('indexSegmentLines', () => {
  const index = indexSegmentLines(DIGEST, bytes);
  if (index === undefined) throw new Error('expected an index');

  it('records each envelope type’s first and last line, never a type inside an event’s data', () => {
    expect(index.lines).toBe(7);
    expect(Object.fromEntries(index.types)).toEqual({
      'user/message': { first: 0, last: 0 },
      'tool/call': { first: 1, last: 6 },
      'session/config': { first: 3, last: 3 },
    });
  });

  it('records each distinct call’s file arguments with its first and last line', () => {
    expect(index.calls()).toEqual([
      { call: { name: 'write_file', effect: 'side-effect', paths: ['a.txt'] }, first: 1, last: 4 },
      { call: { name: 'list_files', effect: 'read-only', paths: [] }, first: 2, last: 2 },
      { call: { name: 'read_file', effect: 'read-only' }, first: 5, last: 5 },
      { call: { name: 'Edit', effect: 'side-effect', paths: ['/w/b.ts', 'n.ipynb'] }, first: 6, last: 6 },
    ]);
  });

  it('keeps where the last config lies and the SHA-256 of its bytes, so that line can be read alone', () => {
    const start = bytes.indexOf('{"type":"session/config"');
    const end = bytes.indexOf('\n', start);
    expect([...index.kept]).toEqual([[3, { start, end, sha256: createHash('sha256').update(bytes.subarray(start, end)).digest('hex') }]]);
  });

  it('tells the latest line of some types before an end only when every match before it is known', () => {
    expect(latestLineOf(index, ['session/config'], 7)).toBe(3);
    expect(latestLineOf(index, ['session/config'], 3)).toBe(-1);
    expect(latestLineOf(index, ['workspace/checkpoint'], 7)).toBe(-1);
    expect(latestLineOf(index, ['user/message', 'session/config'], 7)).toBe(3);
    // tool/call occurs before line 4 and at or after it: only the lines can say which is the latest before it.
    expect(latestLineOf(index, ['tool/call'], 4)).toBeUndefined();
  });

  it('gives the calls of a range that starts at the first line or ends at the last, and refuses one inside', () => {
    const names = (from: number, to: number): string[] | undefined => fileCallsIn(index, from, to)?.map((found) => found.name);
    expect(names(0, 2)).toEqual(['write_file']);
    expect(names(0, 7)).toEqual(['write_file', 'list_files', 'read_file', 'Edit']);
    expect(names(5, 7)).toEqual(['read_file', 'Edit']);
    expect(names(3, 7)).toEqual(['write_file', 'read_file', 'Edit']);
    expect(names(2, 4)).toBeUndefined();
    expect(names(4, 4)).toEqual([]);
  });

  it('is no index when a line is not an event', () => {
    expect(indexSegmentLines(DIGEST, Buffer.from(`${line({ seq: 0, type: 'turn/start', time: 0, data: {} })}not json\n`))).toBeUndefined();
  });
});
