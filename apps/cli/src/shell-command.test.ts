import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { shellCommand } from './shell-command.js';

it('quotes each argument a shell would split or expand, and a shell reads back the same argv', () => {
  const argv = ['pi', '--session', "/home/a b/it's $HOME/*.jsonl", 'plain/path-1.jsonl'];
  const line = shellCommand(argv);
  expect(line).toBe(`pi --session '/home/a b/it'\\''s $HOME/*.jsonl' plain/path-1.jsonl`);
  // The real shell's reading of the line: one argument per line.
  const read = execFileSync('sh', ['-c', `printf '%s\\n' ${line.slice('pi '.length)}`], { encoding: 'utf8' });
  expect(read.trimEnd().split('\n')).toStrictEqual(argv.slice(1));
});
