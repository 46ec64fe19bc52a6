/**
 * @module import-command-spec
 * `dsh import`: its entry in the command table. Its `--format` help lists dsh-import's formats, read
 * from dsh-import's light entry, so this module loads only when `import` is parsed or the table is listed.
 */
import { TRANSCRIPT_FORMATS } from 'dsh-import/formats';
import { JSON_OPTION, MAX_BYTES_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh import FILE…`: Claude Code, Codex or pi session files imported, branches as forks. */
export const IMPORT_COMMAND: CommandSpec = {
  name: 'import',
  usage: 'dsh import FILE… [--format F] [--name NAME] [--strict] [--json] | dsh import --from-claude [--project DIR]',
  summary: 'import Claude Code, Codex or pi session files (branches become forks) and print the tree',
  description:
    'Reads every FILE first (nothing is stored if one is refused), then stores each session atomically:\n' +
    'the main line, and every other branch as a fork child. Subagent files (subagents/agent-*.jsonl,\n' +
    'Codex subagent rollouts) import as their own sessions linked to their main session, in any order;\n' +
    'a Codex fork rollout becomes a fork child of its parent rollout (given too, or imported before).\n' +
    'A file imported before is SESSION_EXISTS. --from-claude imports the Claude Code sessions of the\n' +
    'current directory (or --project DIR) from $CLAUDE_CONFIG_DIR or ~/.claude, skipping those imported before.',
  options: {
    format: { type: 'string', value: 'F', help: `auto (default) | ${TRANSCRIPT_FORMATS.join(' | ')}` },
    name: { type: 'string', value: 'NAME', help: 'name the imported main session (one FILE only)' },
    'from-claude': { type: 'boolean', help: "import this directory's Claude Code sessions" },
    strict: { type: 'boolean', help: 'refuse a line that is not JSON (MALFORMED_LINE) instead of skipping it with a warning' },
    project: { type: 'string', value: 'DIR', help: 'with --from-claude: the project directory (default: current directory)' },
    'max-bytes': MAX_BYTES_OPTION,
    json: JSON_OPTION,
    ...STORE_OPTIONS,
  },
  positionals: 0,
  variadic: true,
  examples: [
    'dsh import ~/.claude/projects/-work-app/5f0c3a52-….jsonl',
    'dsh import --from-claude',
    'dsh import rollout-2026-05-11T11-26-55-….jsonl --name codex-run',
  ],
};
