/**
 * @module migrate-command-spec
 * `dsh migrate`: its entry in the command table. Its summary names the current format version, read
 * from dsh-codec's light entry, so this module loads only when `migrate` is parsed or the table is listed.
 */
import { CURRENT_FORMAT_VERSION } from 'dsh-codec/format-version';
import { MAX_BYTES_OPTION, STORE_OPTIONS, type CommandSpec, type OptionSpec } from './option-specs.js';

/** `dsh migrate FILE`: a log of any version as current-format JSONL. */
export const MIGRATE_COMMAND: CommandSpec = {
  name: 'migrate',
  usage: 'dsh migrate FILE [--to VERSION] [--write] [--max-bytes N]',
  // The version is named (as migrate's and validate's messages do) and read from the codec, never a literal.
  summary: `print a log of any version as current-format (V${CURRENT_FORMAT_VERSION}) JSONL`,
  options: {
    to: {
      type: 'string',
      value: 'VERSION',
      help: `the format version to write: ${String(CURRENT_FORMAT_VERSION)} (current, the default) or ${String(CURRENT_FORMAT_VERSION - 1)} (back to one self-contained V${String(CURRENT_FORMAT_VERSION - 1)} file a dsh that reads only V${String(CURRENT_FORMAT_VERSION - 1)} opens; refused, naming the event, if the log holds data V${String(CURRENT_FORMAT_VERSION - 1)} cannot hold)`,
    },
    write: { type: 'boolean', help: 'replace FILE atomically instead, keeping the original as FILE.bak' },
    'max-bytes': MAX_BYTES_OPTION,
    help: STORE_OPTIONS.help as OptionSpec,
  },
  positionals: 1,
};
