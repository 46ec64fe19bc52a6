/**
 * @module usage-errors
 * The `USAGE` errors of a command line dsh does not take: an unknown option or command (the nearest
 * valid one named; a Claude Code option dsh lacks, with what to use instead), a missing or ambiguous
 * value. Loaded only when parsing fails.
 */
import { CliError } from './cli-error.js';
import { claudeCodeOnlyFlag } from './claude-code-flags.js';
import { closestName } from './closest-name.js';
import { COMMAND_NAMES } from './command-names.js';
import type { CommandSpec } from './option-specs.js';
import { PRINT_COMMAND } from './print-command-spec.js';

/** Turns `parseArgs`' messages into dsh's: what was expected, what came, and the nearest valid option. */
export function usageError(spec: CommandSpec, error: unknown): CliError {
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

/** An unknown command name: the commands there are, and the nearest one named. */
export function unknownCommandError(name: string): CliError {
  const names = [...COMMAND_NAMES];
  const nearest = closestName(name, names);
  return new CliError(
    'USAGE',
    `Unknown command '${name}'${nearest === undefined ? '' : `; did you mean '${nearest}'?`} Expected one of ${names.join(', ')}, or -p PROMPT.`,
    { hint: nearest === undefined ? 'see `dsh --help`' : `dsh ${nearest} --help` },
  );
}
