/**
 * @module command-names
 * The index of `dsh`'s commands: their names, in the order `dsh --help` lists them, each with the
 * import of its spec module. Parsing a command line loads that one command's spec (`dsh fork FILE`
 * loads neither serve's, completion's nor the help-only strings of import and migrate); the whole
 * table (`command-spec.ts`) loads only for the help and completion.
 */
import type { CommandSpec } from './option-specs.js';

/** Print mode's name (`dsh -p`, `dsh help print`): not a command word, but the table's other entry. */
export const PRINT_COMMAND_NAME = 'print';

const SPEC_LOADERS = new Map<string, () => Promise<CommandSpec>>([
  ['sessions', async () => (await import('./session-command-specs.js')).SESSIONS_COMMAND],
  ['show', async () => (await import('./session-command-specs.js')).SHOW_COMMAND],
  ['rename', async () => (await import('./session-command-specs.js')).RENAME_COMMAND],
  ['delete', async () => (await import('./session-command-specs.js')).DELETE_COMMAND],
  ['fork', async () => (await import('./fork-command-spec.js')).FORK_COMMAND],
  ['restore', async () => (await import('./workspace-command-specs.js')).RESTORE_COMMAND],
  ['diff', async () => (await import('./workspace-command-specs.js')).DIFF_COMMAND],
  ['peers', async () => (await import('./peers-command-spec.js')).PEERS_COMMAND],
  ['import', async () => (await import('./import-command-spec.js')).IMPORT_COMMAND],
  ['export', async () => (await import('./export-command-spec.js')).EXPORT_COMMAND],
  ['repair', async () => (await import('./repair-command-spec.js')).REPAIR_COMMAND],
  ['hooks', async () => (await import('./workspace-command-specs.js')).HOOKS_COMMAND],
  ['checkpoint', async () => (await import('./workspace-command-specs.js')).CHECKPOINT_COMMAND],
  ['validate', async () => (await import('./validate-command-spec.js')).VALIDATE_COMMAND],
  ['migrate', async () => (await import('./migrate-command-spec.js')).MIGRATE_COMMAND],
  ['serve', async () => (await import('./serve-command-spec.js')).SERVE_COMMAND],
  ['completion', async () => (await import('./completion-command-spec.js')).COMPLETION_COMMAND],
]);

/** Every command's name, in the order `dsh --help` lists them. */
export const COMMAND_NAMES: readonly string[] = [...SPEC_LOADERS.keys()];

/** The spec of the command named `name`, its module loaded now; undefined when dsh has no such command. */
export async function loadCommandSpec(name: string): Promise<CommandSpec | undefined> {
  return await SPEC_LOADERS.get(name)?.();
}
