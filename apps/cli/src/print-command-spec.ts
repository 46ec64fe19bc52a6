/**
 * @module print-command-spec
 * `PRINT_COMMAND`: print mode's options and help (`dsh -p`, shaped like `claude -p`, SPEC §21).
 */
import { PRINT_COMMAND_NAME } from './command-names.js';
import { MODEL_OPTION, NO_CHECKPOINTS_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** Print mode: `dsh -p PROMPT`, shaped like `claude -p`. */
export const PRINT_COMMAND: CommandSpec = {
  name: PRINT_COMMAND_NAME,
  usage: 'dsh -p [options] [PROMPT]',
  summary: 'run one turn and print the final answer',
  description:
    'Runs PROMPT as one turn and prints the final assistant text. Without --resume/--continue a new session\n' +
    'is created. --resume continues that session; with --fork-session it first forks it (after its latest\n' +
    'closed turn, or exactly at --resume-at SEQ) and runs PROMPT in the child, leaving the original unchanged.\n' +
    'PROMPT may come anywhere among the options; without it (or as "-") the prompt is read from stdin; with\n' +
    'both, the piped text comes first and PROMPT after it, in one message. A resumed session runs on the\n' +
    'model it recorded unless --model names another (the switch is recorded). With --output-format json,\n' +
    'stream-json or events every outcome ends in a result object on stdout, refusals included (exit 1; usage 2).\n' +
    'A prompt over --max-bytes (256 MiB) is refused PROMPT_TOO_LARGE before anything is stored. Claude Code flags\n' +
    'dsh lacks (--add-dir, --mcp-config, --settings, …) are refused with what dsh does instead.',
  options: {
    print: { type: 'boolean', short: 'p', help: 'print mode: run PROMPT as one turn, print the answer, exit' },
    resume: { type: 'string', short: 'r', value: 'ID|NAME', help: 'continue this session (or fork it, with --fork-session)' },
    continue: { type: 'boolean', short: 'c', help: 'continue the most recent session of the working directory' },
    'fork-session': { type: 'boolean', help: 'with --resume/--continue: run in a new fork instead' },
    'resume-at': { type: 'string', value: 'SEQ', help: 'with --fork-session: fork exactly at this event seq' },
    worktree: {
      type: 'boolean',
      help: 'with --fork-session: the fork runs in a new directory holding the files at the cut (git: branch dsh/<name>)',
    },
    name: { type: 'string', value: 'NAME', help: 'name the new session or fork (renames a continued session)' },
    tools: { type: 'string', value: 'a,b', help: 'tools the model may use; others do not exist for it' },
    cwd: {
      type: 'string',
      value: 'DIR',
      help: "working directory of the session (default: a new session's is the current directory; a resumed one keeps its own)",
    },
    model: MODEL_OPTION,
    'no-checkpoints': {
      ...NO_CHECKPOINTS_OPTION,
      help: "take no checkpoints of the session's files, stored in its config so its later resumes take none either (default: at each turn start and after each call that may change them)",
    },
    'output-format': {
      type: 'string',
      value: 'FORMAT',
      help: "text (default): the answer | json: one result object (Claude Code's fields too) | stream-json: Claude Code's message lines (system init, assistant, user tool_result), then the result | events: each dsh event as a JSON line, then the result",
    },
    'max-turns': {
      type: 'string',
      value: 'N',
      help: 'at most N model requests in this turn; reaching it ends the turn (subtype error_max_turns)',
    },
    'session-id': { type: 'string', value: 'UUID', help: 'id of the new session (or of the fork); SESSION_EXISTS if taken' },
    'system-prompt': { type: 'string', value: 'TEXT', help: "replace the session's system prompt (recorded; kept on resume)" },
    'append-system-prompt': { type: 'string', value: 'TEXT', help: 'append TEXT to the system prompt (recorded; kept on resume)' },
    'system-prompt-file': {
      type: 'string',
      value: 'FILE',
      help: "replace the session's system prompt with FILE's text (as --system-prompt; NOT_A_FILE, FILE_TOO_LARGE over --max-bytes)",
    },
    'max-bytes': {
      type: 'string',
      value: 'N',
      help: 'refuse a prompt (stdin and argument together) over N bytes (default 268435456, 256 MiB): PROMPT_TOO_LARGE, nothing run or stored',
    },
    verbose: {
      type: 'boolean',
      help: "more detail on stderr: the session, model, cwd and tools, then each event as it is appended; with --output-format json, stdout is the array of Claude Code's message objects (the result last)",
    },
    'input-format': {
      type: 'string',
      value: 'FORMAT',
      help: "text (default) | stream-json: stdin holds Claude Code's user message lines, run as one prompt (bounded by --max-bytes)",
    },
    allowedTools: {
      type: 'string',
      multiple: true,
      value: 'LIST',
      help: 'accepted, with a note: dsh has no permission prompts, every available tool runs; --tools restricts availability',
    },
    'permission-mode': { type: 'string', value: 'MODE', help: 'accepted, as --allowedTools' },
    'dangerously-skip-permissions': { type: 'boolean', help: 'accepted, as --allowedTools' },
    disallowedTools: {
      type: 'string',
      multiple: true,
      value: 'LIST',
      help: 'remove these tools from availability (dsh names, or Claude Code names: Read, Write, Edit, Glob, LS, Grep)',
    },
    ...STORE_OPTIONS,
  },
  positionals: 1,
  minPositionals: 0,
  examples: [
    'dsh -p "plan the release" --name baseline',
    'echo "summarise this" | dsh -p --output-format json',
    'dsh -p --resume baseline "one more thing"',
    'dsh -p "try approach A" --resume baseline --fork-session --output-format json',
    'dsh -p "and then?" --resume <child-id>',
  ],
};
