import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { expect, test } from 'vitest';
import { shellQuote, storeArguments } from './store-arguments.js';

const context = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: {}, cwd: '/work/project' };

test('a --data given on the command line is repeated, absolute; the environment and the default are not', () => {
  expect(storeArguments(context, { data: 'sessions' })).toBe(' --data /work/project/sessions');
  expect(storeArguments(context, { data: '/tmp/my data' })).toBe(` --data '/tmp/my data'`);
  expect(storeArguments(context, {})).toBe('');
});

test('a --database-url is repeated unless it holds a password, which stays out of printed commands', () => {
  expect(storeArguments(context, { 'database-url': 'postgres://dsh@127.0.0.1:5432/dsh' })).toBe(
    ' --database-url postgres://dsh@127.0.0.1:5432/dsh',
  );
  expect(storeArguments(context, { 'database-url': 'postgres://dsh:secret@127.0.0.1/dsh' })).toBe(' --database-url "$DSH_DATABASE_URL"');
});

test('any quoted word reaches a real shell unchanged', () => {
  fc.assert(
    fc.property(
      fc.string({ minLength: 1, maxLength: 30 }).filter((word) => !word.includes('\u0000')),
      (word) => {
        expect(execFileSync('sh', ['-c', `printf %s ${shellQuote(word)}`], { encoding: 'utf8' })).toBe(word);
      },
    ),
    { numRuns: 60 },
  );
});
