import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { COMMANDS } from './command-spec.js';
import { parseCommandLine } from './parse-command-line.js';

function usageError(argv: string[]): CliError {
  try {
    parseCommandLine(argv);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  return expect.fail(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('gives every command a --help (and `help COMMAND`) listing its usage and options', () => {
    for (const spec of COMMANDS) {
      for (const argv of [
        [spec.name, '--help'],
        [spec.name, '-h'],
        ['help', spec.name],
      ]) {
        const parsed = parseCommandLine(argv);
        if (parsed.kind !== 'help') return expect.fail(`${argv.join(' ')} did not ask for help`);
        expect(parsed.text).toContain(`Usage: ${spec.usage}`);
        for (const option of Object.keys(spec.options)) expect(parsed.text).toContain(`--${option}`);
      }
    }
    const main = parseCommandLine(['--help']);
    expect(main.kind === 'help' && main.text).toContain('dsh COMMAND');
    expect(parseCommandLine([]).kind).toBe('interactive');
  });

  it('parses print mode with its options', () => {
    const parsed = parseCommandLine([
      '-p',
      'hi',
      '--resume',
      'base',
      '--fork-session',
      '--resume-at',
      '4',
      '--tools',
      'a,b',
      '--output-format',
      'json',
    ]);
    expect(parsed).toMatchObject({
      kind: 'command',
      spec: { name: 'print' },
      values: { print: true, resume: 'base', 'fork-session': true, 'resume-at': '4', tools: 'a,b', 'output-format': 'json' },
      positionals: ['hi'],
    });
  });

  it('takes the prompt anywhere among the options, like `claude -p` (-p is a flag, not a value option)', () => {
    expect(parseCommandLine(['-p', '--resume', 'x', 'hi'])).toMatchObject({ values: { print: true, resume: 'x' }, positionals: ['hi'] });
    expect(parseCommandLine(['--resume', 'x', '-p', 'hi'])).toMatchObject({ values: { print: true, resume: 'x' }, positionals: ['hi'] });
    expect(parseCommandLine(['-p', '--output-format', 'json'])).toMatchObject({ values: { print: true }, positionals: [] });
    expect(usageError(['-p', 'one', 'two']).message).toContain('0 to 1 argument(s)');
  });

  it('names the nearest valid option for an unknown one', () => {
    expect(usageError(['-p', 'hi', '--output-fromat', 'json']).message).toBe(
      "Unknown option '--output-fromat' for print mode; did you mean '--output-format'?",
    );
    expect(usageError(['-p', 'hi', '--resum', 'x']).message).toContain("did you mean '--resume'?");
    expect(usageError(['sessions', '--tre']).message).toContain("did you mean '--tree'?");
    expect(usageError(['-p', 'hi', '--zzzzzzzz']).message).not.toContain('did you mean');
    expect(usageError(['-p', 'hi', '--resume']).message).toBe('--resume expects a value (ID|NAME); received none.');
  });

  it('refuses unknown options, missing prompts and wrong argument counts with USAGE', () => {
    expect(parseCommandLine(['--resume', 'x'])).toMatchObject({ kind: 'interactive', values: { resume: 'x' } });
    expect(usageError(['--resume', 'x', 'hi']).message).toContain('Expected -p');
    expect(usageError(['show']).message).toContain('expects 1 argument');
    expect(usageError(['rename', 'only-one']).message).toContain('expects 2 argument');
    expect(usageError(['sessions', '--nope']).hint).toContain('dsh sessions --help');
    expect(usageError(['launch']).message).toContain("Unknown command 'launch'");
    expect(usageError(['launch']).exitCode).toBe(2);
  });
});

describe('dsh --resume without a value (SPEC §25)', () => {
  it('opens interactive mode on the picker; with a value it resumes that session; with -p it still needs one', () => {
    expect(parseCommandLine(['--resume'])).toEqual({ kind: 'interactive', values: { pick: true } });
    expect(parseCommandLine(['-r', '--data', '/d'])).toEqual({ kind: 'interactive', values: { data: '/d', pick: true } });
    expect(parseCommandLine(['--resume', 'abc'])).toEqual({ kind: 'interactive', values: { resume: 'abc' } });
    expect(() => parseCommandLine(['-p', 'hi', '--resume'])).toThrow(/--resume expects a value/);
  });
});
