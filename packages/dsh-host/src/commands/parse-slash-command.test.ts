import { describe, expect, test } from 'vitest';
import { parseSlashCommand } from './parse-slash-command.js';
import { SLASH_COMMAND_NAMES, slashCommandHelp } from './slash-commands.js';

const command = (line: string) => {
  const parsed = parseSlashCommand(line);
  if (parsed.kind !== 'command') throw new Error(`expected a command from ${line}; received ${JSON.stringify(parsed)}`);
  return parsed.command;
};

describe('parseSlashCommand: messages', () => {
  test('plain text is a message, trimmed; a doubled slash sends a literal slash', () => {
    expect(parseSlashCommand('  hello there \n')).toEqual({ kind: 'message', text: 'hello there' });
    expect(parseSlashCommand('//etc/hosts please')).toEqual({ kind: 'message', text: '/etc/hosts please' });
    expect(parseSlashCommand('   ')).toEqual({ kind: 'message', text: '' });
  });
});

describe('parseSlashCommand: every command', () => {
  test('/branch takes an optional name, which may contain spaces', () => {
    expect(command('/branch')).toEqual({ name: 'branch', worktree: false });
    expect(command('/branch side quest')).toEqual({ name: 'branch', title: 'side quest', worktree: false });
  });

  test('/branch and /fork take --cwd DIR, --tools a,b and --worktree (SPEC §20), spaced or with =', () => {
    expect(command('/branch wt --worktree')).toEqual({ name: 'branch', title: 'wt', worktree: true });
    expect(command('/fork 3 narrow --cwd other --tools read_file')).toEqual({
      name: 'fork',
      atSeq: 3,
      title: 'narrow',
      cwd: 'other',
      tools: ['read_file'],
      worktree: false,
    });
    expect(command('/branch --cwd=../x --tools=a,b,,c')).toEqual({ name: 'branch', cwd: '../x', tools: ['a', 'b', 'c'], worktree: false });
  });

  test('/fork takes a seq (negative counts from the end, as dsh fork --at does) and an optional name', () => {
    expect(command('/fork 7')).toEqual({ name: 'fork', atSeq: 7, worktree: false });
    expect(command('/fork -1 exact')).toEqual({ name: 'fork', atSeq: -1, title: 'exact', worktree: false });
  });

  test('/rename needs a name, kept as typed inside; /resume takes an optional name or id', () => {
    expect(command('/rename formal  twin')).toEqual({ name: 'rename', title: 'formal  twin' });
    expect(command('/resume peer-formal')).toEqual({ name: 'resume', ref: 'peer-formal' });
    expect(command('/resume ')).toEqual({ name: 'resume' });
  });

  test('/compact, /tree, /events, /help and /exit take no arguments; /quit is /exit', () => {
    for (const name of ['compact', 'tree', 'events', 'help', 'exit'] as const) expect(command(`/${name}`)).toEqual({ name });
    expect(command('/quit')).toEqual({ name: 'exit' });
  });
});

describe('parseSlashCommand: bad arguments get clear messages', () => {
  test('a missing name, a bad seq, extra words', () => {
    expect(parseSlashCommand('/rename')).toEqual({
      kind: 'invalid',
      problem: 'missing-argument',
      typed: '',
      command: 'rename',
      message: '/rename expects a NAME.',
    });
    expect(parseSlashCommand('/fork')).toMatchObject({
      problem: 'bad-seq',
      message: "/fork expects an event seq (an integer), received ''.",
    });
    expect(parseSlashCommand('/fork x name')).toMatchObject({
      problem: 'bad-seq',
      message: "/fork expects an event seq (an integer), received 'x'.",
    });
    expect(parseSlashCommand('/compact now')).toMatchObject({
      problem: 'extra-arguments',
      command: 'compact',
      message: "/compact takes no arguments; received 'now'.",
    });
  });

  test('an unknown flag, a flag without its value', () => {
    expect(parseSlashCommand('/branch odd --bogus')).toMatchObject({
      problem: 'bad-flag',
      message: '/branch does not take --bogus: expected --cwd DIR, --tools a,b or --worktree.',
    });
    expect(parseSlashCommand('/fork 2 --worktree=yes')).toMatchObject({
      problem: 'bad-flag',
      message: '/fork does not take --worktree=yes: expected --cwd DIR, --tools a,b or --worktree.',
    });
    expect(parseSlashCommand('/branch --cwd')).toMatchObject({
      problem: 'missing-value',
      message: '/branch --cwd expects a value; received none.',
    });
    expect(parseSlashCommand('/fork 1 --tools=')).toMatchObject({
      problem: 'missing-value',
      message: '/fork --tools expects a value; received none.',
    });
  });

  test('an unknown command, or one the app does not offer, lists the offered ones', () => {
    expect(parseSlashCommand('/frobnicate')).toEqual({
      kind: 'invalid',
      problem: 'unknown-command',
      typed: 'frobnicate',
      message: "Unknown command '/frobnicate': expected one of /branch /fork /rename /resume /compact /tree /events /help /exit.",
    });
    expect(parseSlashCommand('/fork 3', ['branch', 'rename', 'resume', 'compact', 'help'])).toMatchObject({
      problem: 'unknown-command',
      typed: 'fork',
      message: "Unknown command '/fork': expected one of /branch /rename /resume /compact /help.",
    });
    expect(parseSlashCommand('/')).toMatchObject({ problem: 'unknown-command', typed: '' });
  });
});

describe('slashCommandHelp', () => {
  test('one line per offered command, usage in a column of 20', () => {
    const lines = slashCommandHelp();
    expect(lines).toHaveLength(SLASH_COMMAND_NAMES.length);
    expect(lines[0]).toBe('/branch [NAME]      fork after the latest closed turn and switch to the branch');
    expect(slashCommandHelp(['rename'])).toEqual(['/rename NAME        name this session']);
  });
});
