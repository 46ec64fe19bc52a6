/**
 * @module repair-command-spec
 * `dsh repair`: its entry in the command table.
 */
import { MAX_BYTES_OPTION, STORE_OPTIONS, type CommandSpec, type OptionSpec } from './option-specs.js';

/** `dsh repair FILE`: a tool's session file's interrupted calls closed in place. */
export const REPAIR_COMMAND: CommandSpec = {
  name: 'repair',
  usage: 'dsh repair FILE [--format F] [--strict] [--max-bytes N]',
  summary: "close a Claude Code / Codex / pi session file's interrupted tool calls with dsh's results",
  description:
    'When the last step of FILE has tool calls without results (the tool was killed mid-call), appends\n' +
    "one error result per call in the tool's own format, holding dsh's interrupted wording, to FILE\n" +
    'itself (never replaced: a tool still writing it loses no line); the original is kept as FILE.bak\n' +
    '(FILE.bak.1, … when that exists). FILE_IN_USE while another process has FILE open for writing.\n' +
    'A file with nothing open is left untouched (exit 0).',
  options: {
    format: { type: 'string', value: 'F', help: 'auto (default) | claude-code | codex | pi' },
    strict: { type: 'boolean', help: 'refuse a line that is not JSON (MALFORMED_LINE) instead of skipping it with a warning' },
    'max-bytes': MAX_BYTES_OPTION,
    help: STORE_OPTIONS.help as OptionSpec,
  },
  positionals: 1,
  examples: ['dsh repair ~/.codex/sessions/2026/12/02/rollout-….jsonl'],
};
