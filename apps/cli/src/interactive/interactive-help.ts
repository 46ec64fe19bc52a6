/**
 * @module interactive-help
 * `/help` in interactive mode: the grammar's lines for every command (`dsh-host/commands`), the fork
 * options under `/branch` and `/fork`, and how Ctrl-C and typing during a turn behave.
 */
import { slashCommandHelp, SLASH_COMMAND_NAMES } from 'dsh-host/commands';

/** The commands interactive mode offers: all of the grammar's. */
export const INTERACTIVE_COMMANDS = SLASH_COMMAND_NAMES;

/** The text `/help` prints. */
export const INTERACTIVE_HELP = [
  ...slashCommandHelp(INTERACTIVE_COMMANDS.slice(0, 2)),
  `${''.padEnd(20)}both take --cwd DIR, --tools a,b (only those config fields change) or --worktree`,
  ...slashCommandHelp(INTERACTIVE_COMMANDS.slice(2)),
  'Ctrl-C during a turn cancels it (recorded as cancelled). Lines typed during a turn wait for it to end;',
  '/branch typed during a turn acts at once (the running turn goes on in the session it started in).',
].join('\n');
