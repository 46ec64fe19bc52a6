/**
 * @module command-runners
 * What runs each `dsh` command, by name: a function that imports the command's module only when
 * that command runs, so a command loads what it uses and nothing else (the host, PostgreSQL's client
 * or the interactive UI only where they are needed).
 */
import type { CliContext } from './cli-context.js';
import type { OptionValues } from './parse-command-line.js';

/** Runs one command with its parsed options and positional arguments; returns the exit code. */
export type CommandRunner = (context: CliContext, values: OptionValues, positionals: readonly string[]) => Promise<number>;

async function maxBytes(values: OptionValues): Promise<number> {
  return (await import('./read-input-file.js')).maxBytesOption(values['max-bytes']);
}

/** Every command of the table (`COMMANDS` and print mode), each loaded on demand. */
export const COMMAND_RUNNERS: Readonly<Record<string, CommandRunner>> = {
  print: async (context, values, [prompt]) => (await import('./commands/print-command.js')).printCommand(context, values, prompt),
  sessions: async (context, values) => (await import('./commands/sessions-command.js')).sessionsCommand(context, values),
  show: async (context, values, [ref = '']) => (await import('./commands/show-command.js')).showCommand(context, values, ref),
  rename: async (context, values, [ref = '', name = '']) =>
    (await import('./commands/rename-command.js')).renameCommand(context, values, ref, name),
  delete: async (context, values, [ref = '']) => (await import('./commands/delete-command.js')).deleteCommand(context, values, ref),
  fork: async (context, values, [ref = '']) => (await import('./commands/fork-command.js')).forkCommand(context, values, ref),
  restore: async (context, values, [ref = '']) => (await import('./commands/restore-command.js')).restoreCommand(context, values, ref),
  diff: async (context, values, [ref = '']) => (await import('./commands/diff-command.js')).diffCommand(context, values, ref),
  peers: async (context, values, positionals) => (await import('./commands/peers-command.js')).peersCommand(context, values, positionals),
  import: async (context, values, positionals) =>
    (await import('./commands/import-command.js')).importCommand(context, values, positionals),
  export: async (context, values, [ref = '']) => (await import('./commands/export-command.js')).exportCommand(context, values, ref),
  repair: async (context, values, [file = '']) => (await import('./commands/repair-command.js')).repairCommand(context, values, file),
  hooks: async (context, values, positionals) => (await import('./commands/hooks-command.js')).hooksCommand(context, values, positionals),
  checkpoint: async (context, values) => (await import('./commands/checkpoint-command.js')).checkpointCommand(context, values),
  validate: async (context, values, [file = '']) =>
    (await import('./commands/validate-command.js')).validateCommand(context, file, await maxBytes(values)),
  migrate: async (context, values, [file = '']) =>
    (await import('./commands/migrate-command.js')).migrateCommand(
      context,
      file,
      values.write === true,
      await maxBytes(values),
      typeof values.to === 'string' ? values.to : undefined,
    ),
  serve: async (context, values) => (await import('./commands/serve-command.js')).serveCommand(context, values),
  completion: async (context, _values, [shell = '']) =>
    (await import('./commands/completion-command.js')).completionCommand(context, shell),
};
