import { describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { toolCallPaths, touchedBy } from './touched-paths.js';

const call = (name: string, args: unknown): SessionEvent => ({
  seq: 1,
  type: 'tool/call',
  time: 0,
  data: { turn: 0, step: 0, callId: 'c', name, arguments: typeof args === 'string' ? args : JSON.stringify(args), effect: 'unknown' },
});

describe('toolCallPaths', () => {
  it('reads dsh’s and Claude Code’s path arguments, relative to the cwd and normalised', () => {
    expect(toolCallPaths(call('write_file', { path: './src//a.ts', content: '' }), '/w')).toEqual(['src/a.ts']);
    expect(toolCallPaths(call('Edit', { file_path: '/w/src/b.ts' }), '/w')).toEqual(['src/b.ts']);
    expect(toolCallPaths(call('NotebookEdit', { notebook_path: 'n.ipynb' }), '/w')).toEqual(['n.ipynb']);
    expect(toolCallPaths(call('list_files', {}), '/w')).toEqual(['.']);
    expect(toolCallPaths(call('list_files', { path: 'src/' }), '/w')).toEqual(['src']);
  });

  it('names no path outside the cwd, none for a shell command, none for arguments that are not an object', () => {
    expect(toolCallPaths(call('read_file', { path: '../secret' }), '/w')).toEqual([]);
    expect(toolCallPaths(call('Read', { file_path: '/etc/passwd' }), '/w')).toEqual([]);
    expect(toolCallPaths(call('Read', { file_path: '/w/a' }), undefined)).toEqual([]);
    expect(toolCallPaths(call('Bash', { command: 'rm -rf src' }), '/w')).toEqual([]);
    expect(toolCallPaths(call('read_file', '{not json'), '/w')).toEqual([]);
    expect(toolCallPaths(call('read_file', '"a.txt"'), '/w')).toEqual([]);
    expect(toolCallPaths({ seq: 0, type: 'turn/start', time: 0, data: {} }, '/w')).toEqual([]);
  });
});

describe('touchedBy', () => {
  const touched = new Set(['a.md', 'src']);
  it('matches the same path always, and a path under a touched directory only when it appeared or went', () => {
    expect(touchedBy(touched, 'a.md', false)).toBe(true);
    expect(touchedBy(touched, 'src/x/y.ts', false)).toBe(false);
    expect(touchedBy(touched, 'src/x/y.ts', true)).toBe(true);
    expect(touchedBy(touched, 'srcs/y.ts', true)).toBe(false);
    expect(touchedBy(new Set(['.']), 'deep/new.ts', true)).toBe(true);
    expect(touchedBy(new Set(['.']), 'deep/new.ts', false)).toBe(false);
  });
});
