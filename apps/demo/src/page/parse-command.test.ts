import { describe, expect, test } from 'vitest';
import { parseCommand } from './parse-command.js';

describe('parseCommand', () => {
  test('plain text is a message, trimmed; a doubled slash sends a literal slash', () => {
    expect(parseCommand('  hello there \n')).toEqual({ kind: 'message', text: 'hello there' });
    expect(parseCommand('//etc/hosts please')).toEqual({ kind: 'message', text: '/etc/hosts please' });
  });

  test('/branch takes an optional name, which may contain spaces', () => {
    expect(parseCommand('/branch')).toEqual({ kind: 'branch' });
    expect(parseCommand('/branch side quest')).toEqual({ kind: 'branch', name: 'side quest' });
  });

  test('/rename and /resume need an argument', () => {
    expect(parseCommand('/rename baseline')).toEqual({ kind: 'rename', name: 'baseline' });
    expect(parseCommand('/rename')).toEqual({ kind: 'invalid', message: 'Usage: /rename NAME' });
    expect(parseCommand('/resume peer-formal')).toEqual({ kind: 'resume', ref: 'peer-formal' });
    expect(parseCommand('/resume ')).toEqual({ kind: 'invalid', message: 'Usage: /resume NAME|ID' });
  });

  test('/compact takes no argument; unknown commands list the known ones', () => {
    expect(parseCommand('/compact')).toEqual({ kind: 'compact' });
    expect(parseCommand('/compact now')).toMatchObject({ kind: 'invalid' });
    expect(parseCommand('/fork 3')).toEqual({
      kind: 'invalid',
      message: 'Unknown command /fork. Commands: /branch, /rename, /resume, /compact, /help',
    });
  });

  test('the CLI-only /branch options and extra words after /compact get the page usage', () => {
    expect(parseCommand('/branch wt --worktree')).toEqual({ kind: 'invalid', message: 'Usage: /branch [name]' });
    expect(parseCommand('/compact now')).toEqual({ kind: 'invalid', message: 'Usage: /compact (no arguments)' });
  });
});
