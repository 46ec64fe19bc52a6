/**
 * @module slash-commands
 * The table of the slash commands both apps read (SPEC §20 for `/branch` and `/fork`): each name, its
 * usage line and what it does. The parser (`parse-slash-command.ts`) and every `/help` list come from it.
 */

/** The commands the grammar knows; an app offers some of them. */
export const SLASH_COMMAND_NAMES = ['branch', 'fork', 'rename', 'resume', 'compact', 'tree', 'events', 'help', 'exit'] as const;

/** One command's name. */
export type SlashCommandName = (typeof SLASH_COMMAND_NAMES)[number];

/** One row of the table: the usage line, the one-line summary and the other names it answers to. */
export type SlashCommandRow = { usage: string; summary: string; aliases?: readonly string[] };

/** Usage and summary of every command, in the order `/help` lists them. */
export const SLASH_COMMANDS: Readonly<Record<SlashCommandName, SlashCommandRow>> = {
  branch: { usage: '/branch [NAME]', summary: 'fork after the latest closed turn and switch to the branch' },
  fork: { usage: '/fork SEQ [NAME]', summary: 'fork exactly at event SEQ and switch to the child' },
  rename: { usage: '/rename NAME', summary: 'name this session' },
  resume: { usage: '/resume [NAME|ID]', summary: 'switch to another session (without one: pick from the recent ones)' },
  compact: { usage: '/compact', summary: 'summarise history for the model (the log keeps everything)' },
  tree: { usage: '/tree', summary: 'the fork tree (* marks this session)' },
  events: { usage: '/events', summary: 'every event of this session with its seq' },
  help: { usage: '/help', summary: 'this list' },
  exit: { usage: '/exit', summary: 'quit (also Ctrl-D, or Ctrl-C twice)', aliases: ['quit'] },
};

/** The options `/branch` and `/fork` share with `dsh fork` (SPEC §20), as the usage texts name them. */
export const FORK_FLAGS_USAGE = '--cwd DIR, --tools a,b or --worktree';

/** `/help`'s lines for the offered commands: the usage padded to a column, then the summary. */
export function slashCommandHelp(offered: readonly SlashCommandName[] = SLASH_COMMAND_NAMES): string[] {
  return offered.map((name) => `${SLASH_COMMANDS[name].usage.padEnd(20)}${SLASH_COMMANDS[name].summary}`);
}
