import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { COMMANDS } from './command-spec.js';
import { parseCommandLine } from './parse-command-line.js';

async function usageError(argv: string[]): Promise<CliError> {
  try {
    await parseCommandLine(argv);
  } catch (error) {
    if (error instanceof CliError) return error;
    throw error;
  }
  return expect.fail(`expected a usage error for ${argv.join(' ')}`);
}

describe('parseCommandLine', () => {
  it('gives every command a --help (and `help COMMAND`) listing its usage and options', async () => {
    for (const spec of COMMANDS) {
      for (const argv of [
        [spec.name, '--help'],
        [spec.name, '-h'],
        ['help', spec.name],
      ]) {
        const parsed = await parseCommandLine(argv);
        if (parsed.kind !== 'help') return expect.fail(`${argv.join(' ')} did not ask for help`);
        expect(parsed.text).toContain(`Usage: ${spec.usage}`);
        for (const option of Object.keys(spec.options)) expect(parsed.text).toContain(`--${option}`);
      }
    }
    const main = await parseCommandLine(['--help']);
    expect(main.kind === 'help' && main.text).toContain('dsh COMMAND');
    expect((await parseCommandLine([])).kind).toBe('interactive');
  });

  it('parses print mode with its options', async () => {
    const parsed = await parseCommandLine([
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

  it('takes the prompt anywhere among the options, like `claude -p` (-p is a flag, not a value option)', async () => {
    expect(await parseCommandLine(['-p', '--resume', 'x', 'hi'])).toMatchObject({
      values: { print: true, resume: 'x' },
      positionals: ['hi'],
    });
    expect(await parseCommandLine(['--resume', 'x', '-p', 'hi'])).toMatchObject({
      values: { print: true, resume: 'x' },
      positionals: ['hi'],
    });
    expect(await parseCommandLine(['-p', '--output-format', 'json'])).toMatchObject({ values: { print: true }, positionals: [] });
    expect((await usageError(['-p', 'one', 'two'])).message).toContain('0 to 1 argument(s)');
  });

  it('names the nearest valid option for an unknown one', async () => {
    expect((await usageError(['-p', 'hi', '--output-fromat', 'json'])).message).toBe(
      "Unknown option '--output-fromat' for print mode; did you mean '--output-format'?",
    );
    expect((await usageError(['-p', 'hi', '--resum', 'x'])).message).toContain("did you mean '--resume'?");
    expect((await usageError(['sessions', '--tre'])).message).toContain("did you mean '--tree'?");
    expect((await usageError(['-p', 'hi', '--zzzzzzzz'])).message).not.toContain('did you mean');
    expect((await usageError(['-p', 'hi', '--resume'])).message).toBe('--resume expects a value (ID|NAME); received none.');
  });

  it('refuses unknown options, missing prompts and wrong argument counts with USAGE', async () => {
    expect(await parseCommandLine(['--resume', 'x'])).toMatchObject({ kind: 'interactive', values: { resume: 'x' } });
    expect((await usageError(['--resume', 'x', 'hi'])).message).toContain('Expected -p');
    expect((await usageError(['show'])).message).toContain('expects 1 argument');
    expect((await usageError(['rename', 'only-one'])).message).toContain('expects 2 argument');
    expect((await usageError(['sessions', '--nope'])).hint).toContain('dsh sessions --help');
    expect((await usageError(['launch'])).message).toContain("Unknown command 'launch'");
    expect((await usageError(['launch'])).exitCode).toBe(2);
  });
});

describe('dsh --resume without a value (SPEC §25)', () => {
  it('opens interactive mode on the picker; with a value it resumes that session; with -p it still needs one', async () => {
    expect(await parseCommandLine(['--resume'])).toEqual({ kind: 'interactive', values: { pick: true } });
    expect(await parseCommandLine(['-r', '--data', '/d'])).toEqual({ kind: 'interactive', values: { data: '/d', pick: true } });
    expect(await parseCommandLine(['--resume', 'abc'])).toEqual({ kind: 'interactive', values: { resume: 'abc' } });
    await expect(parseCommandLine(['-p', 'hi', '--resume'])).rejects.toThrow(/--resume expects a value/);
  });
});
