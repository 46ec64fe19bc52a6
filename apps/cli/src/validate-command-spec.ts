/**
 * @module validate-command-spec
 * `dsh validate`: its entry in the command table.
 */
import { MAX_BYTES_OPTION, STORE_OPTIONS, type CommandSpec, type OptionSpec } from './option-specs.js';

/** `dsh validate FILE`: a session log of any version checked. */
export const VALIDATE_COMMAND: CommandSpec = {
  name: 'validate',
  usage: 'dsh validate FILE [--max-bytes N]',
  summary: 'check a session log of any format version (exit 0 valid, 1 invalid)',
  options: { 'max-bytes': MAX_BYTES_OPTION, help: STORE_OPTIONS.help as OptionSpec },
  positionals: 1,
};
