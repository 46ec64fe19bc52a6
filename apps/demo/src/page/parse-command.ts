/**
 * @module parse-command
 * The composer's slash commands: dsh-host's one grammar (`dsh-host/commands`, shared with the CLI)
 * restricted to what the page offers, worded as the page shows it. Anything that does not start with
 * `/` is a message; a message that must start with a slash is written with two (`//etc` sends `/etc`).
 */
import { parseSlashCommand, SLASH_COMMANDS, type SlashCommandName, type SlashProblem } from 'dsh-host/commands';

/** What one composer submission asks for. */
export type ComposerInput =
  | { kind: 'message'; text: string }
  | { kind: 'branch'; name?: string }
  | { kind: 'rename'; name: string }
  | { kind: 'resume'; ref: string }
  | { kind: 'compact' }
  | { kind: 'help' }
  | { kind: 'invalid'; message: string };

/** The commands the page offers (`/fork` is the inspector's button; the page has no picker or tree). */
const OFFERED: readonly SlashCommandName[] = ['branch', 'rename', 'resume', 'compact', 'help'];

/** The page's usage of each offered command (the CLI's options and picker are not the page's). */
const PAGE_USAGE: Readonly<Partial<Record<SlashCommandName, string>>> = {
  branch: '/branch [name]',
  resume: '/resume NAME|ID',
};

const usageOf = (name: SlashCommandName) => PAGE_USAGE[name] ?? SLASH_COMMANDS[name].usage;
const invalid = (name: SlashCommandName, problem?: SlashProblem): ComposerInput => ({
  kind: 'invalid',
  message: `Usage: ${usageOf(name)}${problem === 'extra-arguments' ? ' (no arguments)' : ''}`,
});

/** Usage lines shown by `/help` and after a malformed command. */
export const COMMAND_HELP = OFFERED.filter((name) => name !== 'help').map((name) =>
  name === 'resume' ? `${usageOf(name)} — open another session by title or id` : `${usageOf(name)} — ${SLASH_COMMANDS[name].summary}`,
);

/** Parses one composer submission; never throws. */
export function parseCommand(raw: string): ComposerInput {
  const parsed = parseSlashCommand(raw, OFFERED);
  if (parsed.kind === 'message') return parsed;
  if (parsed.kind === 'invalid') {
    if (parsed.command !== undefined) return invalid(parsed.command, parsed.problem);
    return { kind: 'invalid', message: `Unknown command /${parsed.typed}. Commands: ${OFFERED.map((name) => `/${name}`).join(', ')}` };
  }
  const command = parsed.command;
  switch (command.name) {
    case 'branch':
      // The page forks with the parent's config: the CLI's --cwd, --tools and --worktree are refused.
      if (command.cwd !== undefined || command.tools !== undefined || command.worktree) return invalid('branch');
      return command.title === undefined ? { kind: 'branch' } : { kind: 'branch', name: command.title };
    case 'rename':
      return { kind: 'rename', name: command.title };
    case 'resume':
      return command.ref === undefined ? invalid('resume') : { kind: 'resume', ref: command.ref };
    case 'compact':
      return { kind: 'compact' };
    default:
      return { kind: 'help' };
  }
}
