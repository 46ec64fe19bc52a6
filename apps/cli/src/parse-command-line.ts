/**
 * @module parse-command-line
 * `dsh`'s arguments → help, the version, or one command with its options; mistakes are `USAGE`
 * errors naming what was expected and the nearest valid option.
 */
import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';
import { claudeCodeOnlyFlag } from './claude-code-flags.js';
import { closestName } from './closest-name.js';
import { COMMANDS, PRINT_COMMAND, type CommandSpec } from './command-spec.js';
import { isVersionFlag } from './dsh-version.js';
import { spreadToolLists } from './spread-tool-lists.js';
import { commandHelp, mainHelp } from './help-text.js';

/** Option values as parsed: strings for valued options, `true` for flags, string lists for repeatable options. */
export type OptionValues = Record<string, string | boolean | string[] | undefined>;

/** What the command line asks for: help text to print, or one command with its options. */
export type ParsedCommandLine =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'interactive'; values: OptionValues }
  | { kind: 'command'; spec: CommandSpec; values: OptionValues; positionals: string[] };

function expectedCount(fewest: number, most: number): string {
  if (most === 0) return 'no arguments';
  if (fewest === most) return `${String(most)} argument(s)`;
  return `${String(fewest)} to ${String(most)} argument(s)`;
}

/** Turns `parseArgs`' messages into dsh's: what was expected, what came, and the nearest valid option. */
function usageOf(spec: CommandSpec, error: unknown): CliError {
  const helpRef = spec === PRINT_COMMAND ? 'dsh --help' : `dsh ${spec.name} --help`;
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: unknown } | null)?.code;
  const unknown = /Unknown option '([^']+)'/.exec(message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && unknown !== undefined) {
    const names = Object.keys(spec.options);
    const bare = unknown.replace(/^-+/, '').split('=')[0] ?? '';
    const claude = spec === PRINT_COMMAND ? claudeCodeOnlyFlag(bare) : undefined;
    if (claude !== undefined) {
      return new CliError('USAGE', `--${claude.flag} is a Claude Code option dsh does not have: ${claude.instead}.`, {
        hint: `see \`${helpRef}\` for every option`,
      });
    }
    const nearest = closestName(bare, names);
    const where = spec === PRINT_COMMAND ? 'print mode' : `dsh ${spec.name}`;
    return new CliError(
      'USAGE',
      `Unknown option '${unknown}' for ${where}${nearest === undefined ? '' : `; did you mean '--${nearest}'?`}`,
      {
        hint: `see \`${helpRef}\` for every option`,
      },
    );
  }
  const missing = /Option '(?:-\w, )?(--[\w-]+) <value>' argument missing/.exec(message)?.[1];
  if (missing !== undefined) {
    const option = spec.options[missing.slice(2)];
    return new CliError('USAGE', `${missing} expects a value (${option?.value ?? 'VALUE'}); received none.`, {
      hint: `see \`${helpRef}\``,
    });
  }
  const ambiguous = /Option '(?:-\w, )?(--[\w-]+) <value>' argument is ambiguous/.exec(message)?.[1];
  if (ambiguous !== undefined) {
    return new CliError('USAGE', `${ambiguous} expects a value, but the next argument starts with '-'.`, {
      hint: `to pass a value starting with '-', write ${ambiguous}=VALUE`,
    });
  }
  return new CliError('USAGE', message, { hint: `see \`${helpRef}\`` });
}

function parseWith(spec: CommandSpec, args: readonly string[]): ParsedCommandLine {
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    const options = Object.fromEntries(
      Object.entries(spec.options).map(([name, option]) => [
        name,
        {
          type: option.type,
          ...(option.short === undefined ? {} : { short: option.short }),
          ...(option.multiple === true ? { multiple: true } : {}),
        },
      ]),
    );
    const result = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    parsed = { values: result.values as OptionValues, positionals: result.positionals };
  } catch (error) {
    throw usageOf(spec, error);
  }
  if (parsed.values.help === true) return { kind: 'help', text: spec === PRINT_COMMAND ? mainHelp() : commandHelp(spec) };
  const fewest = spec.minPositionals ?? spec.positionals;
  if (spec.variadic !== true && (parsed.positionals.length < fewest || parsed.positionals.length > spec.positionals)) {
    const received = parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((value) => `'${value}'`).join(' ');
    throw new CliError(
      'USAGE',
      `${spec === PRINT_COMMAND ? 'print mode' : `dsh ${spec.name}`} expects ${expectedCount(fewest, spec.positionals)} besides options; received ${received}.`,
      { hint: `usage: ${spec.usage}` },
    );
  }
  return { kind: 'command', spec, values: parsed.values, positionals: parsed.positionals };
}

/**
 * Parses `dsh`'s arguments: `help [COMMAND]`, `--version`, a command name followed by its options,
 * or print mode (`-p [PROMPT]`, the prompt anywhere). Unknown options (with the nearest valid one
 * named) and wrong argument counts are `USAGE` errors.
 */
export function parseCommandLine(given: readonly string[]): ParsedCommandLine {
  // Claude Code's tool lists may follow their flag as separate words (`--allowedTools Read Bash`).
  const argv = spreadToolLists(given);
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'interactive', values: {} };
  if (isVersionFlag(first)) return { kind: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help', text: mainHelp() };
    if (topic === 'print' || topic === '-p') return { kind: 'help', text: commandHelp(PRINT_COMMAND) };
    const spec = COMMANDS.find((command) => command.name === topic);
    if (spec === undefined) throw unknownCommand(topic);
    return { kind: 'help', text: commandHelp(spec) };
  }
  const spec = COMMANDS.find((command) => command.name === first);
  if (spec !== undefined) return parseWith(spec, rest);
  if (!first.startsWith('-')) throw unknownCommand(first);
  // `dsh --resume` without a value opens interactive mode on the session picker, as `claude --resume` does.
  const bare = argv.findIndex((arg, index) => (arg === '--resume' || arg === '-r') && (argv[index + 1] ?? '-').startsWith('-'));
  if (bare !== -1 && !argv.includes('-p') && !argv.includes('--print')) {
    const parsed = parseWith(
      PRINT_COMMAND,
      argv.filter((_, index) => index !== bare),
    );
    if (parsed.kind === 'command' && parsed.positionals.length === 0)
      return { kind: 'interactive', values: { ...parsed.values, pick: true } };
  }
  const parsed = parseWith(PRINT_COMMAND, argv);
  // Options without -p (`dsh --resume X`, `dsh --continue`) open interactive mode on that session.
  if (parsed.kind === 'command' && parsed.values.print !== true) {
    if (parsed.positionals.length > 0) {
      throw new CliError('USAGE', `Expected -p for a prompt given as an argument; received '${parsed.positionals.join(' ')}' without it.`, {
        hint: 'dsh -p "…" runs one turn; dsh alone opens interactive mode',
      });
    }
    return { kind: 'interactive', values: parsed.values };
  }
  return parsed;
}

function unknownCommand(name: string): CliError {
  const names = COMMANDS.map((command) => command.name);
  const nearest = closestName(name, names);
  return new CliError(
    'USAGE',
    `Unknown command '${name}'${nearest === undefined ? '' : `; did you mean '${nearest}'?`} Expected one of ${names.join(', ')}, or -p PROMPT.`,
    { hint: nearest === undefined ? 'see `dsh --help`' : `dsh ${nearest} --help` },
  );
}
