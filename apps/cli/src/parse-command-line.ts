import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';
import { COMMANDS, PRINT_COMMAND, type CommandSpec } from './command-spec.js';
import { commandHelp, mainHelp } from './help-text.js';

/** Option values as parsed: strings for valued options, `true` for flags. */
export type OptionValues = Record<string, string | boolean | undefined>;

/** What the command line asks for: help text to print, or one command with its options. */
export type ParsedCommandLine =
  | { kind: 'help'; text: string }
  | { kind: 'version' }
  | { kind: 'command'; spec: CommandSpec; values: OptionValues; positionals: string[] };

function parseWith(spec: CommandSpec, args: readonly string[]): ParsedCommandLine {
  let parsed: { values: OptionValues; positionals: string[] };
  try {
    const options = Object.fromEntries(
      Object.entries(spec.options).map(([name, option]) => [
        name,
        option.short === undefined ? { type: option.type } : { type: option.type, short: option.short },
      ]),
    );
    const result = parseArgs({ args: [...args], options, allowPositionals: true, strict: true });
    parsed = { values: result.values, positionals: result.positionals };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const helpRef = spec === PRINT_COMMAND ? 'dsh --help' : `dsh ${spec.name} --help`;
    throw new CliError('USAGE', message, { hint: `see \`${helpRef}\`` });
  }
  if (parsed.values.help === true) return { kind: 'help', text: spec === PRINT_COMMAND ? mainHelp() : commandHelp(spec) };
  if (parsed.positionals.length !== spec.positionals) {
    const received = parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((value) => `'${value}'`).join(' ');
    throw new CliError(
      'USAGE',
      `${spec === PRINT_COMMAND ? 'print mode' : `dsh ${spec.name}`} expects ${spec.positionals === 0 ? 'no arguments' : `${spec.positionals} argument(s)`} besides options; received ${received}.`,
      { hint: `usage: ${spec.usage}` },
    );
  }
  return { kind: 'command', spec, values: parsed.values, positionals: parsed.positionals };
}

/**
 * Parses `dsh`'s arguments: `help [COMMAND]`, `--version`, a command name followed by its
 * options, or print mode (`-p PROMPT`). Unknown options and wrong argument counts are `USAGE` errors.
 */
export function parseCommandLine(argv: readonly string[]): ParsedCommandLine {
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'help', text: mainHelp() };
  if (first === '--version' || first === '-v') return { kind: 'version' };
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
  const parsed = parseWith(PRINT_COMMAND, argv);
  if (parsed.kind === 'command' && typeof parsed.values.print !== 'string') {
    throw new CliError('USAGE', 'Expected a prompt (-p PROMPT) or a command; received only options.', { hint: 'see `dsh --help`' });
  }
  return parsed;
}

function unknownCommand(name: string): CliError {
  const known = COMMANDS.map((command) => command.name).join(', ');
  return new CliError('USAGE', `Unknown command '${name}': expected one of ${known}, or -p PROMPT.`, { hint: 'see `dsh --help`' });
}
