/**
 * @module command-spec
 * The table of `dsh`'s commands and their options, in `node:util` `parseArgs` form with a help
 * line each: what parsing, dispatch and `--help` all read.
 */
// The light entries, so that parsing and `--help` load neither the codec's schemas nor the readers.
import { CURRENT_FORMAT_VERSION } from 'dsh-codec/format-version';
import { TRANSCRIPT_FORMATS } from 'dsh-import/formats';
import {
  JSON_OPTION,
  MAX_BYTES_OPTION,
  MODEL_OPTION,
  NO_CHECKPOINTS_OPTION,
  STORE_OPTIONS,
  type CommandSpec,
  type OptionSpec,
} from './option-specs.js';

export type { CommandSpec, OptionSpec } from './option-specs.js';
export { PRINT_COMMAND } from './print-command-spec.js';
import { COMPLETION_COMMAND } from './completion-command-spec.js';
import { SERVE_COMMAND } from './serve-command-spec.js';
import { CHECKPOINT_COMMAND, DIFF_COMMAND, HOOKS_COMMAND, RESTORE_COMMAND } from './workspace-command-specs.js';

/** Every subcommand, in the order `dsh --help` lists them. */
export const COMMANDS: readonly CommandSpec[] = [
  {
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
  },
  {
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
  },
  {
    name: 'rename',
    usage: 'dsh rename ID|NAME NAME',
    summary: 'name a session (appends session/title; the latest name wins)',
    options: { ...STORE_OPTIONS },
    positionals: 2,
  },
  {
    name: 'delete',
    usage: 'dsh delete ID|NAME [--json]',
    summary: 'delete a stored session (refused SESSION_BUSY while a process holds it)',
    description:
      'Removes the session from the data directory. Its forks keep their own copies of the history\nthey inherited; their lineage shows the parent as missing. A directory dsh made for it with\n--worktree (and its branch dsh/<name>) is removed too, uncommitted changes included.',
    options: { json: { type: 'boolean', help: 'print { sessionId, deleted } as JSON' }, ...STORE_OPTIONS },
    positionals: 1,
  },
  {
    name: 'fork',
    usage:
      'dsh fork ID|NAME [--at SEQ] [--name NAME] [--cwd DIR | --worktree | --restore] [--tools a,b] [--no-checkpoints] [--idempotency-key KEY] [--json] | dsh fork FILE --at REF [--worktree] [--format F] [--strict] [--session-id UUID] [--max-bytes N] [--json]',
    summary: 'fork a session (or a Claude Code / Codex / pi session file, in place) and print the child id',
    description:
      'Without --at, forks after the latest closed turn and its standalone tail (titles, config,\n' +
      'compaction), never copying queued input or a running turn. --at SEQ forks exactly at that event,\n' +
      'closing an open tool call or turn with synthetic, model-visible records. With --idempotency-key,\n' +
      'the key is stored with the child: the same command run again (even after a crash) prints the same\n' +
      'child, and a different fork under that key is refused with IDEMPOTENCY_MISMATCH. --cwd and --tools\n' +
      'change only those fields of the config the child inherits. --worktree gives the child a new directory\n' +
      'holding exactly the workspace at the cut (the latest checkpoint at or before it): in a git repository a\n' +
      "worktree on branch dsh/<name> whose commit holds those files (git diff HEAD~1 shows the session's\n" +
      'changes), elsewhere DATA/worktrees/<name>; a source without checkpoints gets HEAD and a warning.\n' +
      'dsh delete removes the directory it made for a child. A cwd a live session already uses is warned about.\n' +
      'FILE (an argument naming an existing file) is a Claude Code, Codex or pi session file: the child is\n' +
      'written beside it in the same format under a new id — the lines up to the cut as written, then\n' +
      "dsh's forked result for every call open there — and the tool's own resume continues it. REF is the\n" +
      "tool's entry id (Claude Code uuid, pi id, Codex ordinal) or seq:N; FILE is never changed. With\n" +
      "--worktree (Claude Code and Codex, after `dsh hooks install TOOL`): the files as dsh's hooks saw them\n" +
      'at REF in a new directory, the child written where the tool finds it for that directory (Claude Code:\n' +
      'its project folder; Codex: beside FILE), its cwd moved and the model told; prints `cd DIR && claude\n' +
      '--resume ID` or `cd DIR && codex resume ID` (see docs/workspace.md). pi: refused USAGE (no hook).',
    options: {
      at: { type: 'string', value: 'SEQ|REF', help: 'fork exactly at this event seq (FILE: an entry id, or seq:N)' },
      format: { type: 'string', value: 'F', help: 'FILE only: auto (default) | claude-code | codex | pi' },
      strict: { type: 'boolean', help: 'FILE only: refuse a line that is not JSON (MALFORMED_LINE) instead of skipping it' },
      'session-id': {
        type: 'string',
        value: 'UUID',
        help: "FILE only: the child's id (default: a new one); TARGET_EXISTS if its file exists",
      },
      'max-bytes': MAX_BYTES_OPTION,
      name: { type: 'string', value: 'NAME', help: 'name of the child' },
      cwd: { type: 'string', value: 'DIR', help: "the child's working directory" },
      worktree: { type: 'boolean', help: 'the child in a new directory holding the files at the cut (git: branch dsh/<name>)' },
      restore: {
        type: 'boolean',
        help: "the child keeps the parent's directory, its files restored to the cut (undoable, as dsh restore)",
      },
      tools: { type: 'string', value: 'a,b', help: 'tools the child may use; others do not exist for it' },
      'no-checkpoints': {
        type: 'boolean',
        help: 'as with -p: this command takes no checkpoint and opens no checkpoint store (--worktree still reads the one at the cut)',
      },
      'idempotency-key': { type: 'string', value: 'KEY', help: 'retry-safe fork: the same key and request give the same child' },
      json: JSON_OPTION,
      ...STORE_OPTIONS,
    },
    positionals: 1,
  },
  RESTORE_COMMAND,
  DIFF_COMMAND,
  {
    name: 'peers',
    usage:
      'dsh peers BASELINE --prompt TEXT [--prompt TEXT …] [--name NAME …] [--at SEQ] [--worktree | --cwd DIR …] [--tools a,b] [--model M] [--output-format text|json]\n' +
      '       dsh peers --compare A B [--output-format text|json]\n' +
      '       dsh peers --remove NAME… [--force]',
    summary: 'fork one baseline into several peers at one cut, run their prompts at once, print them side by side',
    description:
      'Forks BASELINE once per --prompt, every peer at the same cut (after its latest closed turn, or exactly\n' +
      '--at SEQ), never one peer from another, and runs the prompts concurrently. Peers are named\n' +
      '<baseline>-1, -2, … unless --name is given once per prompt (a name in use is refused). --worktree\n' +
      'gives each peer its own git worktree on branch dsh/<name> at a commit holding the workspace at the\n' +
      'cut (HEAD, with a warning, when the baseline has no checkpoint; the baseline must be in a git\n' +
      "repository); --cwd DIR once per prompt sets each peer's directory instead. Exits 0 when every\n" +
      'peer\'s turn completed, else 1. Continue a peer with dsh -p "…" --resume NAME; running dsh peers\n' +
      'again forks new peers. --compare A B shows two existing sessions side by side (turns, tool calls,\n' +
      'files changed since their fork, final answers) and a line diff of their final answers.\n' +
      "--remove deletes a peer's worktree and branch, refusing uncommitted changes or unmerged commits\n" +
      'unless --force.',
    options: {
      prompt: { type: 'string', multiple: true, value: 'TEXT', help: "one peer's first prompt (repeat for each peer)" },
      name: { type: 'string', multiple: true, value: 'NAME', help: 'name of each peer, in prompt order (default <baseline>-N)' },
      at: { type: 'string', value: 'SEQ', help: 'fork every peer exactly at this event seq' },
      worktree: { type: 'boolean', help: 'each peer in its own git worktree on branch dsh/<name>' },
      cwd: { type: 'string', multiple: true, value: 'DIR', help: "each peer's working directory, once per prompt" },
      tools: { type: 'string', value: 'a,b', help: 'tools the peers may use; others do not exist for them' },
      model: MODEL_OPTION,
      'no-checkpoints': NO_CHECKPOINTS_OPTION,
      'output-format': { type: 'string', value: 'FORMAT', help: 'text (default): one block per peer | json: { baseline, peers: […] }' },
      compare: { type: 'boolean', help: 'compare two existing sessions A B side by side, with a diff of their final answers' },
      remove: { type: 'boolean', help: 'remove the worktrees and branches of the named peers' },
      force: { type: 'boolean', help: 'with --remove: also when they hold uncommitted changes or unmerged commits' },
      ...STORE_OPTIONS,
    },
    positionals: 0,
    variadic: true,
    examples: [
      'dsh peers baseline --prompt "try approach A" --prompt "try approach B" --worktree',
      'dsh peers baseline --at 12 --prompt "retry the call" --prompt "skip it" --name retry --name skip',
      'dsh -p "go on" --resume baseline-1',
      'dsh peers --compare baseline-1 baseline-2',
      'dsh peers --remove baseline-1 baseline-2',
    ],
  },
  {
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
  },
  {
    name: 'export',
    usage: 'dsh export ID|NAME [--format markdown|messages|claude-code|codex|pi] [--out FILE|DIR]',
    summary: 'print the model-visible history of a session, or write it as a Claude Code / Codex / pi session file',
    description:
      "markdown and messages print the history. claude-code, codex and pi write it as that tool's session\n" +
      'file under a new id (printed): to stdout, or with --out to FILE, or into DIR (a path ending in / is\n' +
      "created) under the name the tool gives it, never over an existing file. --out at the tool's session root\n" +
      '(~/.claude/projects, ~/.codex/sessions, ~/.pi/agent/sessions) files it where the tool looks for the\n' +
      "session's cwd. Prints the line that resumes it, quoted for a shell.",
    options: {
      format: {
        type: 'string',
        value: 'F',
        help: 'markdown (default) | messages (a JSON array of {role, content, …}) | claude-code | codex | pi',
      },
      out: {
        type: 'string',
        value: 'FILE|DIR',
        help: "with claude-code/codex/pi: write the session file here (DIR/, or a tool's session root)",
      },
      ...STORE_OPTIONS,
    },
    positionals: 1,
  },
  {
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
  },
  HOOKS_COMMAND,
  CHECKPOINT_COMMAND,
  {
    name: 'validate',
    usage: 'dsh validate FILE [--max-bytes N]',
    summary: 'check a session log of any format version (exit 0 valid, 1 invalid)',
    options: { 'max-bytes': MAX_BYTES_OPTION, help: STORE_OPTIONS.help as OptionSpec },
    positionals: 1,
  },
  {
    name: 'migrate',
    usage: 'dsh migrate FILE [--write] [--max-bytes N]',
    // The version is named (as migrate's and validate's messages do) and read from the codec, never a literal.
    summary: `print a log of any version as current-format (V${CURRENT_FORMAT_VERSION}) JSONL`,
    options: {
      write: { type: 'boolean', help: 'replace FILE atomically instead, keeping the original as FILE.bak' },
      'max-bytes': MAX_BYTES_OPTION,
      help: STORE_OPTIONS.help as OptionSpec,
    },
    positionals: 1,
  },
  SERVE_COMMAND,
  COMPLETION_COMMAND,
];
