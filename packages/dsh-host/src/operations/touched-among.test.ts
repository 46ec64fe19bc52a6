/**
 * `touchedAmong`: the note's question (which of a few changed paths did the history touch?) answered
 * without keeping the history's whole touched set, and without normalising paths already written as
 * workspace paths — the same answer as `fileCallPaths` for every spelling of a path.
 */
import * as nodePath from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FileCall } from 'dsh-session';
import { fileCallPaths, touchedAmong, touchedBy, touchedCandidates } from './touched-paths.js';

const counted = vi.hoisted(() => ({ relative: 0, normalize: 0 }));
vi.mock('node:path', async (importOriginal) => {
  const original = await importOriginal<typeof nodePath>();
  const posix = {
    ...original.posix,
    normalize: (path: string) => {
      counted.normalize += 1;
      return original.posix.normalize(path);
    },
  };
  return {
    ...original,
    posix,
    relative: (from: string, to: string) => {
      counted.relative += 1;
      return original.relative(from, to);
    },
  };
});

afterEach(() => {
  counted.relative = 0;
  counted.normalize = 0;
});

/** Spellings a recorded call may use: clean, dotted, doubled slashes, absolute inside and outside, odd names. */
const SPELLINGS = [
  'src/a.ts',
  './src/a.ts',
  'src//a.ts',
  'src/./a.ts',
  'src/x/../a.ts',
  'src/',
  'src',
  '.',
  './',
  '..',
  '../src/a.ts',
  '...',
  '.hidden/b',
  'a/..',
  '/w/src/a.ts',
  '/w/src',
  '/w',
  '/w/',
  '/w/../w/src/a.ts',
  '/w2/src/a.ts',
  '/other/a.ts',
  '//w/src/a.ts',
  '',
  'notes/…/ü.md',
];

const calls: FileCall[] = [
  ...SPELLINGS.map((path, index) => ({ name: index % 2 === 0 ? 'read_file' : 'Edit', paths: [path] })),
  { name: 'list_files', paths: [] },
  { name: 'Bash' },
  { name: 'write_file', paths: ['src/a.ts', '/w/src/b.ts'] },
];

describe('touchedAmong', () => {
  it('answers as the whole touched set does, for every spelling and cwd', () => {
    for (const cwd of ['/w', '/w/', '/w/./', 'w', '/', undefined]) {
      const touched = new Set(calls.flatMap((call) => fileCallPaths(call, cwd)));
      for (const changed of [['src/a.ts'], ['src/new/deep.ts'], ['.hidden/b', 'other.md'], ['...', 'src/b.ts'], ['notes/…/ü.md']]) {
        const candidates = touchedCandidates(changed);
        const among = touchedAmong(calls, cwd, candidates);
        expect(among, `cwd ${String(cwd)}, changed ${changed.join(' ')}`).toEqual(
          new Set([...candidates].filter((path) => touched.has(path))),
        );
        for (const path of changed)
          for (const entriesChanged of [false, true])
            expect(touchedBy(among, path, entriesChanged)).toBe(touchedBy(touched, path, entriesChanged));
      }
    }
  });

  it('keeps only candidates: a history naming 20,000 files, asked about one, holds one', () => {
    const many: FileCall[] = Array.from({ length: 20_000 }, (_, index) => ({ name: 'write_file', paths: [`src/f${String(index)}.ts`] }));
    expect(touchedAmong(many, '/w', touchedCandidates(['src/f7.ts']))).toEqual(new Set(['src/f7.ts']));
    // 'src' itself was never named: a new file under it was not touched.
    expect(touchedAmong(many, '/w', touchedCandidates(['src/new.ts']))).toEqual(new Set());
  });

  it('normalises no path already written as a workspace path, relative or under the cwd', () => {
    const clean: FileCall[] = Array.from({ length: 5_000 }, (_, index) => ({
      name: 'Edit',
      paths: [index % 2 === 0 ? `src/d${String(index % 50)}/f${String(index)}.ts` : `/w/src/f${String(index)}.ts`],
    }));
    touchedAmong(clean, '/w', touchedCandidates(['src/f1.ts']));
    expect(counted).toEqual({ relative: 0, normalize: 0 });
    // A spelling that needs it is still normalised.
    touchedAmong([{ name: 'Edit', paths: ['./src//f1.ts', '/w/../w/src/f1.ts'] }], '/w', touchedCandidates(['src/f1.ts']));
    expect(counted.normalize).toBe(2);
    expect(counted.relative).toBe(1);
  });
});

describe('touchedCandidates', () => {
  it('names each path, every folder above it, and the cwd', () => {
    expect(touchedCandidates(['a/b/c.ts', 'd.md'])).toEqual(new Set(['.', 'a/b/c.ts', 'a/b', 'a', 'd.md']));
  });
});
