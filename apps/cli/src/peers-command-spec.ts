/**
 * @module peers-command-spec
 * `dsh peers`: its entry in the command table (one baseline forked into peers run at once).
 */
import { MODEL_OPTION, NO_CHECKPOINTS_OPTION, STORE_OPTIONS, type CommandSpec } from './option-specs.js';

/** `dsh peers BASELINE --prompt …`: peers forked at one cut and run at once; `--compare`, `--remove`. */
export const PEERS_COMMAND: CommandSpec = {
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
};
