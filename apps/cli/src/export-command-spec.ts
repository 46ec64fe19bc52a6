/**
 * @module export-command-spec
 * `dsh export`: its entry in the command table.
 */
import { STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh export ID|NAME`: a session's model-visible history, or a tool's session file of it. */
export const EXPORT_COMMAND: CommandSpec = {
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
};
