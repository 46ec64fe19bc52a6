import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { shellCommand, shellLineIn } from './shell-command.js';

it('quotes each argument a shell would split or expand, and a shell reads back the same argv', () => {
  const argv = ['pi', '--session', "/home/a b/it's $HOME/*.jsonl", 'plain/path-1.jsonl'];
  const line = shellCommand(argv);
  expect(line).toBe(`pi --session '/home/a b/it'\\''s $HOME/*.jsonl' plain/path-1.jsonl`);
  // The real shell's reading of the line: one argument per line.
  const read = execFileSync('sh', ['-c', `printf '%s\\n' ${line.slice('pi '.length)}`], { encoding: 'utf8' });
  expect(read.trimEnd().split('\n')).toStrictEqual(argv.slice(1));
});

it('shellLineIn: a shell reads back the directory, each variable and the argv exactly', () => {
  const dir = mkdtempSync(join(tmpdir(), "it's a $HOME dir "));
  try {
    const line = shellLineIn({ dir, env: { CLAUDE_CONFIG_DIR: '/home/a b/.claude' } }, [
      'sh',
      '-c',
      'pwd; printf "%s\\n" "$CLAUDE_CONFIG_DIR" "$0"',
      'x y',
    ]);
    expect(line).toContain(` && CLAUDE_CONFIG_DIR='/home/a b/.claude' sh -c `);
    const read = execFileSync('sh', ['-c', line], { encoding: 'utf8' });
    expect(read.trimEnd().split('\n')).toStrictEqual([realpathSync(dir), '/home/a b/.claude', 'x y']);
  } finally {
    rmSync(dir, { recursive: true });
  }
});

it('shellLineIn refuses a variable name a shell would run as a command', () => {
  expect(() => shellLineIn({ env: { 'A B': 'x' } }, ['true'])).toThrow(/expected a shell variable name, received 'A B'/);
});
