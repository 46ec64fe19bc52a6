/**
 * @module completion-command
 * `dsh completion bash|zsh|fish` (SPEC §25): a completion script written from the command table, so a
 * command or option added there completes with no edit here.
 */
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import { COMMANDS, PRINT_COMMAND, type CommandSpec } from '../command-spec.js';
import { COMPLETION_SHELLS } from '../completion-command-spec.js';

function flags(spec: CommandSpec): string[] {
  return Object.entries(spec.options).flatMap(([name, option]) => [
    `--${name}`,
    ...(option.short === undefined ? [] : [`-${option.short}`]),
  ]);
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

function bashScript(): string {
  const cases = COMMANDS.map((spec) => `    ${spec.name}) opts=${quote(flags(spec).join(' '))} ;;`);
  return [
    "# dsh completion for bash (and zsh through bashcompinit), generated from dsh's command table.",
    '_dsh() {',
    '  local cur=${COMP_WORDS[COMP_CWORD]} command="" opts i',
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    case ${COMP_WORDS[i]} in ' + COMMANDS.map((spec) => spec.name).join('|') + ') command=${COMP_WORDS[i]}; break ;; esac',
    '  done',
    '  case $command in',
    ...cases,
    '    *)',
    '      if [[ $cur == -* || $COMP_CWORD -gt 1 ]]; then',
    `        opts=${quote(flags(PRINT_COMMAND).join(' '))}`,
    '      else',
    `        opts=${quote(COMMANDS.map((spec) => spec.name).join(' '))}`,
    '      fi ;;',
    '  esac',
    '  if [[ $cur == -* || -z $command && $COMP_CWORD -eq 1 ]]; then',
    '    mapfile -t COMPREPLY < <(compgen -W "$opts" -- "$cur")',
    '  else',
    '    mapfile -t COMPREPLY < <(compgen -f -- "$cur")',
    '  fi',
    '}',
    'complete -o default -F _dsh dsh',
    '',
  ].join('\n');
}

function zshScript(): string {
  return [
    '# dsh completion for zsh: the bash completion through bashcompinit.',
    'autoload -U +X bashcompinit && bashcompinit',
    bashScript(),
  ].join('\n');
}

function fishScript(): string {
  const lines = ["# dsh completion for fish, generated from dsh's command table.", 'complete -c dsh -f'];
  for (const spec of COMMANDS) lines.push(`complete -c dsh -n __fish_use_subcommand -a ${spec.name} -d ${quote(spec.summary)}`);
  const option = (condition: string, name: string, spec: CommandSpec['options'][string]) =>
    `complete -c dsh -n ${quote(condition)} -l ${name}${spec.short === undefined ? '' : ` -s ${spec.short}`}${spec.type === 'string' ? ' -r' : ''} -d ${quote(spec.help)}`;
  for (const [name, spec] of Object.entries(PRINT_COMMAND.options)) lines.push(option('__fish_use_subcommand', name, spec));
  for (const command of COMMANDS) {
    for (const [name, spec] of Object.entries(command.options))
      lines.push(option(`__fish_seen_subcommand_from ${command.name}`, name, spec));
  }
  return `${lines.join('\n')}\n`;
}

/** `dsh completion SHELL`: prints the script for bash, zsh or fish; another shell is a usage error. */
export function completionCommand(context: CliContext, shell: string): number {
  if (!(COMPLETION_SHELLS as readonly string[]).includes(shell))
    throw new CliError('USAGE', `dsh completion writes a script for ${COMPLETION_SHELLS.join(', ')}; received '${shell}'.`);
  context.stdout.write(shell === 'bash' ? bashScript() : shell === 'zsh' ? zshScript() : fishScript());
  return 0;
}
