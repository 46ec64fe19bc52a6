/**
 * @module parse-command-line
 * `dsh`'s arguments → help, the version, or one command with its options; mistakes are `USAGE`
 * errors naming what was expected and the nearest valid option. The help text and the usage errors
 * load only when asked for (`help-text.ts`, `usage-errors.ts`), so a command that parses loads neither;
 * nor the other commands' specs (`command-names.ts`), nor print mode's unless print mode is parsed.
 */
import { parseArgs } from 'node:util';
import { CliError } from './cli-error.js';
import { loadCommandSpec, PRINT_COMMAND_NAME } from './command-names.js';
import { isVersionFlag } from './dsh-version.js';
import type { CommandSpec } from './option-specs.js';
import { spreadToolLists } from './spread-tool-lists.js';

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

async function parseWith(spec: CommandSpec, args: readonly string[]): Promise<ParsedCommandLine> {
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
    throw (await import('./usage-errors.js')).usageError(spec, error);
  }
  if (parsed.values.help === true) return { kind: 'help', text: await helpText(spec) };
  const fewest = spec.minPositionals ?? spec.positionals;
  if (spec.variadic !== true && (parsed.positionals.length < fewest || parsed.positionals.length > spec.positionals)) {
    const received = parsed.positionals.length === 0 ? 'none' : parsed.positionals.map((value) => `'${value}'`).join(' ');
    throw new CliError(
      'USAGE',
      `${spec.name === PRINT_COMMAND_NAME ? 'print mode' : `dsh ${spec.name}`} expects ${expectedCount(fewest, spec.positionals)} besides options; received ${received}.`,
      { hint: `usage: ${spec.usage}` },
    );
  }
  return { kind: 'command', spec, values: parsed.values, positionals: parsed.positionals };
}

/** The help of `spec` (print mode's is the main help; undefined: the main help). */
async function helpText(spec: CommandSpec | undefined): Promise<string> {
  const { commandHelp, mainHelp } = await import('./help-text.js');
  return spec === undefined || spec.name === PRINT_COMMAND_NAME ? mainHelp() : commandHelp(spec);
}

/** Print mode's spec, loaded only for a print-mode command line or its help. */
async function printCommand(): Promise<CommandSpec> {
  return (await import('./print-command-spec.js')).PRINT_COMMAND;
}

/** `unknownCommandError(name)`, loaded with the other usage errors. */
async function unknownCommand(name: string): Promise<CliError> {
  return (await import('./usage-errors.js')).unknownCommandError(name);
}

/**
 * Parses `dsh`'s arguments: `help [COMMAND]`, `--version`, a command name followed by its options,
 * or print mode (`-p [PROMPT]`, the prompt anywhere). Unknown options (with the nearest valid one
 * named) and wrong argument counts are `USAGE` errors.
 */
export async function parseCommandLine(given: readonly string[]): Promise<ParsedCommandLine> {
  // Claude Code's tool lists may follow their flag as separate words (`--allowedTools Read Bash`).
  const argv = spreadToolLists(given);
  const [first, ...rest] = argv;
  if (first === undefined) return { kind: 'interactive', values: {} };
  if (isVersionFlag(first)) return { kind: 'version' };
  if (first === 'help') {
    const topic = rest[0];
    if (topic === undefined) return { kind: 'help', text: await helpText(undefined) };
    if (topic === PRINT_COMMAND_NAME || topic === '-p')
      return { kind: 'help', text: (await import('./help-text.js')).commandHelp(await printCommand()) };
    const spec = await loadCommandSpec(topic);
    if (spec === undefined) throw await unknownCommand(topic);
    return { kind: 'help', text: await helpText(spec) };
  }
  const spec = await loadCommandSpec(first);
  if (spec !== undefined) return parseWith(spec, rest);
  if (!first.startsWith('-')) throw await unknownCommand(first);
  const print = await printCommand();
  // `dsh --resume` without a value opens interactive mode on the session picker, as `claude --resume` does.
  const bare = argv.findIndex((arg, index) => (arg === '--resume' || arg === '-r') && (argv[index + 1] ?? '-').startsWith('-'));
  if (bare !== -1 && !argv.includes('-p') && !argv.includes('--print')) {
    const parsed = await parseWith(
      print,
      argv.filter((_, index) => index !== bare),
    );
    if (parsed.kind === 'command' && parsed.positionals.length === 0)
      return { kind: 'interactive', values: { ...parsed.values, pick: true } };
  }
  const parsed = await parseWith(print, argv);
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
