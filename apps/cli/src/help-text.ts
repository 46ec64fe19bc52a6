/**
 * @module help-text
 * `dsh --help` and `dsh COMMAND --help`, built from the command table.
 */
import { COMMANDS, PRINT_COMMAND, type CommandSpec } from './command-spec.js';

function optionLines(spec: CommandSpec): string[] {
  const rows = Object.entries(spec.options).map(([name, option]) => {
    const flag = `${option.short === undefined ? '    ' : `-${option.short}, `}--${name}${option.value === undefined ? '' : ` ${option.value}`}`;
    return [flag, option.help] as const;
  });
  const width = Math.max(...rows.map(([flag]) => flag.length));
  return rows.map(([flag, help]) => `  ${flag.padEnd(width)}  ${help}`);
}

/** The `--help` text of one command. */
export function commandHelp(spec: CommandSpec): string {
  const lines = [`Usage: ${spec.usage}`, '', spec.summary.charAt(0).toUpperCase() + spec.summary.slice(1) + '.'];
  if (spec.description !== undefined) lines.push('', spec.description);
  lines.push('', 'Options:', ...optionLines(spec));
  if (spec.examples !== undefined) lines.push('', 'Examples:', ...spec.examples.map((example) => `  ${example}`));
  return lines.join('\n') + '\n';
}

/** The top-level `dsh --help` text. */
export function mainHelp(): string {
  const width = Math.max(...COMMANDS.map((command) => command.name.length));
  return [
    'dsh — durable agent sessions with exact-event forks',
    '',
    'Usage:',
    '  dsh [--resume ID|NAME | --continue] [--name N] [--model M]   interactive session (on a terminal; /help inside)',
    `  ${PRINT_COMMAND.usage}`,
    '  dsh COMMAND [options]',
    '',
    'Print mode (like `claude -p`):',
    ...optionLines(PRINT_COMMAND),
    '',
    'Commands:',
    ...COMMANDS.map((command) => `  ${command.name.padEnd(width)}  ${command.summary}`),
    `  ${'help'.padEnd(width)}  show help for a command`,
    '',
    'Data directory: --data DIR, else $DSH_HOME, else ~/.dsh.',
    'PostgreSQL instead: --database-url postgres://USER@HOST:PORT/DB[?schema=NAME], else $DSH_DATABASE_URL.',
    'Run `dsh COMMAND --help` for the options of a command.',
    '',
  ].join('\n');
}
