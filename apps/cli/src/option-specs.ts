/**
 * @module option-specs
 * The shapes of `dsh`'s command table (`CommandSpec`, `OptionSpec`) and the options several commands share.
 */
import type { ParseArgsConfig } from 'node:util';

/** Option declarations as `node:util` `parseArgs` takes them, each with the help line shown for it. */
export type OptionSpec = NonNullable<ParseArgsConfig['options']>[string] & { value?: string; help: string };

/** One `dsh` command: how it is called, what it does, and the options it takes. */
export type CommandSpec = {
  name: string;
  usage: string;
  summary: string;
  description?: string;
  options: Record<string, OptionSpec>;
  /** How many arguments besides options the command takes (at most). */
  positionals: number;
  /** The fewest it accepts, when some are optional (default: exactly `positionals`). */
  minPositionals?: number;
  /** Takes any number of positional arguments (the command checks them); `positionals` is ignored. */
  variadic?: true;
  examples?: string[];
};

/** The store options every command that opens a store takes. */
export const STORE_OPTIONS: Record<string, OptionSpec> = {
  data: { type: 'string', value: 'DIR', help: 'data directory (default: $DSH_HOME, else ~/.dsh)' },
  'database-url': { type: 'string', value: 'URL', help: 'store sessions on PostgreSQL instead (default: $DSH_DATABASE_URL)' },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
};
/** `--model`: which model answers. */
export const MODEL_OPTION: OptionSpec = {
  type: 'string',
  value: 'MODEL',
  help: 'default: anthropic:claude-sonnet-4-5 with ANTHROPIC_API_KEY, else openai:gpt-4.1 with OPENAI_API_KEY, else keyless (offline, deterministic) | scripted:FILE | openai:NAME (OPENAI_BASE_URL, OPENAI_API_KEY) | anthropic:NAME (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, ANTHROPIC_THINKING_BUDGET) | sonnet, opus, haiku, claude-… (anthropic:…)',
};
/** `--no-checkpoints`: no workspace checkpoints for the sessions this command runs, stored in those it creates or forks (SPEC §23). */
export const NO_CHECKPOINTS_OPTION: OptionSpec = {
  type: 'boolean',
  help: "take no checkpoints of the sessions' files, stored in the config of each session it creates or forks so later resumes take none either (default: at each turn start and after each call that may change them, into DATA/.workspaces.git)",
};
/** `--json`. */
export const JSON_OPTION: OptionSpec = { type: 'boolean', help: 'print JSON instead of text' };
/** `--max-bytes N`: the input size bound. */
export const MAX_BYTES_OPTION: OptionSpec = {
  type: 'string',
  value: 'N',
  help: 'refuse a FILE over N bytes (default 268435456, 256 MiB): FILE_TOO_LARGE; what is not a regular file is NOT_A_FILE',
};
