/**
 * @module fork-command-spec
 * `dsh fork`: its entry in the command table (a stored session, or a tool's session file in place).
 */
import { JSON_OPTION, MAX_BYTES_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh fork ID|NAME` and `dsh fork FILE --at REF`: a session forked, or a tool's session file forked beside it. */
export const FORK_COMMAND: CommandSpec = {
  name: 'fork',
  usage:
    'dsh fork ID|NAME [--at SEQ] [--name NAME] [--cwd DIR | --worktree | --restore] [--tools a,b] [--no-checkpoints] [--idempotency-key KEY] [--json] | dsh fork FILE --at REF [--worktree] [--format F] [--strict] [--session-id UUID] [--max-bytes N] [--max-memory N] [--json]',
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
    "--worktree (after `dsh hooks install TOOL`): the files as dsh's hooks (pi: its extension) saw them\n" +
    'at REF in a new directory, the child written where the tool finds it for that directory (Claude Code:\n' +
    'its project folder; Codex and pi: beside FILE), its cwd moved and the model told; prints `cd DIR &&\n' +
    'claude --resume ID`, `cd DIR && codex resume ID` or `cd DIR && pi --session CHILD` (docs/workspace.md).',
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
    'max-memory': {
      type: 'string',
      value: 'N',
      help: "FILE only: the fork's memory bound in bytes (default 4× FILE's size, at least 64 MiB): FILE_TOO_LARGE past it",
    },
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
      help: "as with -p: no checkpoint now, none in the child's resumes (stored in its config); --worktree still reads the one at the cut",
    },
    'idempotency-key': { type: 'string', value: 'KEY', help: 'retry-safe fork: the same key and request give the same child' },
    json: JSON_OPTION,
    ...STORE_OPTIONS,
  },
  positionals: 1,
};
