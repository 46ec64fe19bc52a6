/**
 * @module workspace-command-specs
 * The command table's entries for SPEC §23's workspace commands: restore, diff, hooks, checkpoint.
 */
import { STORE_OPTIONS, type CommandSpec, type OptionSpec } from './option-specs.js';

/** `dsh restore ID --at N`: the session's files set to the workspace at N (SPEC §23). */
export const RESTORE_COMMAND: CommandSpec = {
  name: 'restore',
  usage: 'dsh restore ID|NAME --at SEQ [--json]',
  summary: "set a session's working directory to its files at an event (undoable)",
  description:
    "Sets the session's cwd to the workspace at SEQ (the latest checkpoint at or before it). First the\n" +
    'current files are checkpointed and recorded in the session, and the command that restores them is\n' +
    'printed (dsh restore ID --at M). Only paths a checkpoint of the session holds are written or removed;\n' +
    'files no checkpoint captured are left as they are and listed. SESSION_BUSY while a process holds the\n' +
    'session; NO_CHECKPOINT when there is no checkpoint at or before SEQ.',
  options: {
    at: { type: 'string', value: 'SEQ', help: 'the event whose workspace to restore' },
    json: { type: 'boolean', help: 'print { sessionId, cwd, atSeq, checkpointSeq, changed, untracked, undoSeq, undo } as JSON' },
    ...STORE_OPTIONS,
  },
  positionals: 1,
};

/** `dsh diff ID --at N [--to M]`: the files that differ between two checkpoints, or a checkpoint and now (SPEC §23). */
export const DIFF_COMMAND: CommandSpec = {
  name: 'diff',
  usage: 'dsh diff ID|NAME --at SEQ [--to SEQ] [--json]',
  summary: "list the files that differ between a session's workspace at two events, or at one and now",
  description:
    'Compares the workspace at --at (the latest checkpoint at or before it) with the workspace at --to, or,\n' +
    "without --to, with the files in the session's cwd now. One line per path: added, deleted, modified or\n" +
    'type-changed. Nothing is written.',
  options: {
    at: { type: 'string', value: 'SEQ', help: 'the event whose workspace to compare from' },
    to: { type: 'string', value: 'SEQ', help: 'the event whose workspace to compare with (default: the files now)' },
    json: { type: 'boolean', help: 'print { sessionId, from, to, changes, skipped? } as JSON' },
    ...STORE_OPTIONS,
  },
  positionals: 1,
};

/** `dsh hooks install|remove claude-code|codex|pi`: the checkpoint hooks in the tool's settings, or pi's extension (SPEC §23). */
export const HOOKS_COMMAND: CommandSpec = {
  name: 'hooks',
  usage: 'dsh hooks install|remove claude-code|codex|pi [--project DIR | --user] [--json]',
  summary: "add dsh's checkpoint hooks to Claude Code's settings, Codex's hooks.json or pi's extensions (or take exactly them out)",
  description:
    'install adds a PreToolUse and a PostToolUse hook running `dsh checkpoint --from TOOL` (this node and\n' +
    "this dsh's bin by absolute path, --data DIR when not the default) to the tool's file, beside its other\n" +
    'hooks; installing again adds nothing. remove takes out exactly the hooks with that command. Claude\n' +
    'Code: DIR/.claude/settings.json (--project DIR, default the current directory) or settings.json in\n' +
    '$CLAUDE_CONFIG_DIR or ~/.claude (--user). Codex: DIR/.codex/hooks.json or hooks.json in $CODEX_HOME\n' +
    'or ~/.codex; Codex runs a hook only once you trust it (/hooks in codex) — dsh does not trust it for\n' +
    'you, and says so. The file is replaced atomically, its mode kept; a malformed one is refused\n' +
    'INVALID_SETTINGS with nothing written. pi has no command hooks: install writes one extension file,\n' +
    'dsh-checkpoints.ts, in DIR/.pi/extensions/ or in $PI_CODING_AGENT_DIR (or ~/.pi/agent)/extensions/,\n' +
    "that runs the same command on pi's tool_call and tool_result (pi loads it unreviewed, and says so);\n" +
    'remove deletes exactly that file. A file there that dsh did not write, or edited since, is refused\n' +
    'TARGET_EXISTS and left as it is. Then `dsh fork FILE --at REF --worktree` gives a fork the files as\n' +
    'they were at REF (see docs/workspace.md).',
  options: {
    project: {
      type: 'string',
      value: 'DIR',
      help: "the project's file: DIR/.claude/settings.json, DIR/.codex/hooks.json or DIR/.pi/extensions/ (default: the current directory)",
    },
    user: {
      type: 'boolean',
      help: "the user's file: settings.json in $CLAUDE_CONFIG_DIR or ~/.claude; hooks.json in $CODEX_HOME or ~/.codex; extensions/ in $PI_CODING_AGENT_DIR or ~/.pi/agent",
    },
    json: {
      type: 'boolean',
      help: 'print { settings, command, added | removed, trust? } as JSON (pi: { extension, command, added | removed, replaced?, load? })',
    },
    ...STORE_OPTIONS,
  },
  positionals: 2,
  examples: [
    'dsh hooks install claude-code --project .',
    'dsh hooks install codex --user',
    'dsh hooks install pi --user',
    'dsh hooks remove claude-code --user',
  ],
};

/** `dsh checkpoint --from claude-code|codex|pi`: a checkpoint taken from a hook's JSON on stdin (SPEC §23). */
export const CHECKPOINT_COMMAND: CommandSpec = {
  name: 'checkpoint',
  usage: 'dsh checkpoint --from claude-code|codex|pi [--data DIR]',
  summary: "checkpoint a Claude Code, Codex or pi session's files (the command dsh's hooks run; reads the hook's JSON on stdin)",
  description:
    'Reads a PreToolUse/PostToolUse hook input on stdin (session_id, cwd — absolute —, tool_use_id,\n' +
    "hook_event_name; at most 32 MiB; Codex sends the rollout call_id as tool_use_id; dsh's pi extension\n" +
    "sends pi's type tool_call/tool_result, sessionId, cwd, toolCallId), checkpoints cwd into\n" +
    'DATA/.workspaces.git and records it in DATA/claude-checkpoints/, DATA/codex-checkpoints/ or\n' +
    'DATA/pi-checkpoints/<session id>.jsonl. Never writes in the workspace or the transcript. Always exits\n' +
    '0: a failure is one note on stderr, so the tool goes on.',
  options: {
    from: { type: 'string', value: 'TOOL', help: 'the tool whose hook runs this: claude-code | codex | pi' },
    data: STORE_OPTIONS.data as OptionSpec,
    help: STORE_OPTIONS.help as OptionSpec,
  },
  positionals: 0,
};
