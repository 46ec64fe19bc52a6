/**
 * @module dsh-host/commands
 * The slash-command grammar the CLI's interactive mode and the demo's composer share: the table of
 * commands with their usage texts, and a pure parser. This entry imports no node built-ins, so a
 * browser bundle can take it; the main entry never imports it.
 */
export {
  FORK_FLAGS_USAGE,
  SLASH_COMMAND_NAMES,
  SLASH_COMMANDS,
  slashCommandHelp,
  type SlashCommandName,
  type SlashCommandRow,
} from './slash-commands.js';
export {
  parseSlashCommand,
  slashCommandNamed,
  type SlashCommand,
  type SlashForkFlags,
  type SlashInput,
  type SlashProblem,
} from './parse-slash-command.js';
