/**
 * @module command-spec
 * The whole table of `dsh`'s commands and their options, in `node:util` `parseArgs` form with a help
 * line each: what `dsh --help` and the completion scripts read. Parsing loads only the one command's
 * spec, through the index in `command-names.ts`; each spec lives in its own `*-command-spec(s).ts`.
 */
import { COMPLETION_COMMAND } from './completion-command-spec.js';
import { EXPORT_COMMAND } from './export-command-spec.js';
import { FORK_COMMAND } from './fork-command-spec.js';
import { IMPORT_COMMAND } from './import-command-spec.js';
import { MIGRATE_COMMAND } from './migrate-command-spec.js';
import type { CommandSpec } from './option-specs.js';
import { PEERS_COMMAND } from './peers-command-spec.js';
import { REPAIR_COMMAND } from './repair-command-spec.js';
import { SERVE_COMMAND } from './serve-command-spec.js';
import { DELETE_COMMAND, RENAME_COMMAND, SESSIONS_COMMAND, SHOW_COMMAND } from './session-command-specs.js';
import { VALIDATE_COMMAND } from './validate-command-spec.js';
import { CHECKPOINT_COMMAND, DIFF_COMMAND, HOOKS_COMMAND, RESTORE_COMMAND } from './workspace-command-specs.js';

export type { CommandSpec, OptionSpec } from './option-specs.js';
export { PRINT_COMMAND } from './print-command-spec.js';

/** Every subcommand, in the order `dsh --help` lists them (the order of `COMMAND_NAMES`). */
export const COMMANDS: readonly CommandSpec[] = [
  SESSIONS_COMMAND,
  SHOW_COMMAND,
  RENAME_COMMAND,
  DELETE_COMMAND,
  FORK_COMMAND,
  RESTORE_COMMAND,
  DIFF_COMMAND,
  PEERS_COMMAND,
  IMPORT_COMMAND,
  EXPORT_COMMAND,
  REPAIR_COMMAND,
  HOOKS_COMMAND,
  CHECKPOINT_COMMAND,
  VALIDATE_COMMAND,
  MIGRATE_COMMAND,
  SERVE_COMMAND,
  COMPLETION_COMMAND,
];
