/**
 * @module session-command-specs
 * The command table's entries for the stored sessions: sessions, show, rename, delete.
 */
import { JSON_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh sessions`: the stored sessions, their fork tree, or a tool's own session files. */
export const SESSIONS_COMMAND: CommandSpec = {
  name: 'sessions',
  usage: 'dsh sessions [--tree] [--json] | dsh sessions --claude|--codex|--pi [--json]',
  summary: "list sessions (newest first), or their fork tree, or a Claude Code / Codex / pi user's own sessions",
  description:
    "--claude, --codex and --pi list that tool's session files (id, updated, cwd, title or first prompt,\n" +
    'file) from $CLAUDE_CONFIG_DIR or ~/.claude, $CODEX_HOME or ~/.codex, $PI_CODING_AGENT_DIR or ~/.pi/agent.\n' +
    'Such an id works wherever dsh takes a session (fork, export, show) when no dsh session has it.',
  options: {
    tree: { type: 'boolean', help: 'show forks under their parents' },
    claude: { type: 'boolean', help: "list Claude Code's sessions" },
    codex: { type: 'boolean', help: "list Codex's sessions" },
    pi: { type: 'boolean', help: "list pi's sessions" },
    json: JSON_OPTION,
    ...STORE_OPTIONS,
  },
  positionals: 0,
};

/** `dsh show ID|NAME`: a session's header and events; `dsh show FILE --entries`: a session file's entries. */
export const SHOW_COMMAND: CommandSpec = {
  name: 'show',
  usage: 'dsh show ID|NAME [--json]\n       dsh show FILE --entries [--json] [--format F] [--strict] [--max-bytes N]',
  summary: "show a session's header and events with their seqs, or a tool's session file's entries",
  description:
    '--entries lists every entry on the main line of a Claude Code, Codex or pi session file (a path, or\n' +
    "such a session's id): its REF (Claude uuid, Codex ordinal, pi id), the seq dsh fork FILE --at REF\n" +
    "reports for it (also taken as --at seq:N), the tool's entry type and a one-line summary, calls marked.",
  options: {
    json: { type: 'boolean', help: 'print the observation (with --entries: { file, format, entries }) as JSON' },
    entries: { type: 'boolean', help: "list a session file's entries with the REF and seq dsh fork FILE --at takes" },
    format: { type: 'string', value: 'F', help: 'with --entries: auto (default) | claude-code | codex | pi' },
    strict: { type: 'boolean', help: 'with --entries: refuse a malformed line instead of skipping it' },
    'max-bytes': { type: 'string', value: 'N', help: 'with --entries: refuse a larger file (default 256 MiB)' },
    ...STORE_OPTIONS,
  },
  positionals: 1,
};

/** `dsh rename ID|NAME NAME`: a session named. */
export const RENAME_COMMAND: CommandSpec = {
  name: 'rename',
  usage: 'dsh rename ID|NAME NAME',
  summary: 'name a session (appends session/title; the latest name wins)',
  options: { ...STORE_OPTIONS },
  positionals: 2,
};

/** `dsh delete ID|NAME`: a stored session deleted. */
export const DELETE_COMMAND: CommandSpec = {
  name: 'delete',
  usage: 'dsh delete ID|NAME [--json]',
  summary: 'delete a stored session (refused SESSION_BUSY while a process holds it)',
  description:
    'Removes the session from the data directory. Its forks keep their own copies of the history\nthey inherited; their lineage shows the parent as missing. A directory dsh made for it with\n--worktree (and its branch dsh/<name>) is removed too, uncommitted changes included.',
  options: { json: { type: 'boolean', help: 'print { sessionId, deleted } as JSON' }, ...STORE_OPTIONS },
  positionals: 1,
};
