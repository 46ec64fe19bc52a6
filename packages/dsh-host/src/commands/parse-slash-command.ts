/**
 * @module parse-slash-command
 * The one slash-command grammar of the CLI's interactive mode and the demo's composer. A line that
 * does not start with `/` is a message; one that must start with a slash is written with two (`//etc`
 * sends `/etc`). Pure: no I/O, no node built-ins (the demo page bundles it), never throws.
 */
import { FORK_FLAGS_USAGE, SLASH_COMMAND_NAMES, SLASH_COMMANDS, type SlashCommandName } from './slash-commands.js';

/** `/branch` and `/fork`'s options (SPEC §20): only those config fields change; `--worktree` makes one. */
export type SlashForkFlags = { cwd?: string; tools?: string[]; worktree: boolean };

/** A well-formed command, its arguments parsed (`cwd` as typed: the app resolves it). */
export type SlashCommand =
  | ({ name: 'branch'; title?: string } & SlashForkFlags)
  | ({ name: 'fork'; atSeq: number; title?: string } & SlashForkFlags)
  | { name: 'rename'; title: string }
  | { name: 'resume'; ref?: string }
  | { name: 'compact' }
  | { name: 'tree' }
  | { name: 'events' }
  | { name: 'help' }
  | { name: 'exit' };

/** Why a command was refused, so an app can word its own hint; `message` is the grammar's wording. */
export type SlashProblem = 'unknown-command' | 'missing-argument' | 'extra-arguments' | 'bad-seq' | 'bad-flag' | 'missing-value';

/** What one typed line asks for. */
export type SlashInput =
  | { kind: 'message'; text: string }
  | { kind: 'command'; command: SlashCommand }
  | { kind: 'invalid'; problem: SlashProblem; typed: string; command?: SlashCommandName; message: string };

type Refusal = Extract<SlashInput, { kind: 'invalid' }>;

function refuse(problem: SlashProblem, typed: string, message: string, command?: SlashCommandName): Refusal {
  return { kind: 'invalid', problem, typed, message, ...(command === undefined ? {} : { command }) };
}

/** The command a typed name stands for (its own name or an alias), if the grammar knows one. */
export function slashCommandNamed(typed: string): SlashCommandName | undefined {
  return SLASH_COMMAND_NAMES.find((name) => name === typed || SLASH_COMMANDS[name].aliases?.includes(typed) === true);
}

/** `/branch`'s and `/fork`'s words after the seq: `--cwd DIR`, `--tools a,b`, `--worktree`; the other words are the name. */
function forkWords(name: 'branch' | 'fork', words: string[]): Refusal | ({ title?: string } & SlashForkFlags) {
  const flags: { title?: string } & SlashForkFlags = { worktree: false };
  const title: string[] = [];
  while (words.length > 0) {
    const word = words.shift() as string;
    const cut = word.startsWith('--') ? word.indexOf('=') : -1;
    const [flag, inline] = cut === -1 ? [word, undefined] : [word.slice(0, cut), word.slice(cut + 1)];
    const value = inline ?? (flag === '--cwd' || flag === '--tools' ? words.shift() : undefined);
    if (flag === '--cwd' || flag === '--tools') {
      if (value === undefined || value === '')
        return refuse('missing-value', word, `/${name} ${flag} expects a value; received none.`, name);
      if (flag === '--cwd') flags.cwd = value;
      else
        flags.tools = value
          .split(',')
          .map((tool) => tool.trim())
          .filter((tool) => tool !== '');
    } else if (flag === '--worktree' && inline === undefined) flags.worktree = true;
    else if (flag.startsWith('--')) return refuse('bad-flag', word, `/${name} does not take ${word}: expected ${FORK_FLAGS_USAGE}.`, name);
    else title.push(word);
  }
  if (title.length > 0) flags.title = title.join(' ');
  return flags;
}

/** One command's arguments (`rest`: the line after the name, trimmed). */
function parseArguments(name: SlashCommandName, rest: string): Refusal | SlashCommand {
  const words = rest === '' ? [] : rest.split(/\s+/);
  switch (name) {
    case 'branch': {
      const flags = forkWords(name, words);
      return 'kind' in flags ? flags : { name, ...flags };
    }
    case 'fork': {
      const seq = words.shift() ?? '';
      if (!/^-?\d+$/.test(seq)) return refuse('bad-seq', seq, `/fork expects an event seq (an integer), received '${seq}'.`, name);
      const flags = forkWords(name, words);
      return 'kind' in flags ? flags : { name, atSeq: Number(seq), ...flags };
    }
    case 'rename':
      return rest === '' ? refuse('missing-argument', '', '/rename expects a NAME.', name) : { name, title: rest };
    case 'resume':
      return rest === '' ? { name } : { name, ref: rest };
    default:
      return rest === '' ? { name } : refuse('extra-arguments', rest, `/${name} takes no arguments; received '${rest}'.`, name);
  }
}

/**
 * Parses one typed line against the commands an app `offered` (default: all of them); a name the app
 * does not offer is refused like one nobody knows, with the offered ones listed.
 */
export function parseSlashCommand(raw: string, offered: readonly SlashCommandName[] = SLASH_COMMAND_NAMES): SlashInput {
  const text = raw.trim();
  if (text.startsWith('//')) return { kind: 'message', text: text.slice(1) };
  if (!text.startsWith('/')) return { kind: 'message', text };
  const match = /^\/(\S*)\s*(.*)$/s.exec(text);
  const typed = match?.[1] ?? '';
  const name = slashCommandNamed(typed);
  if (name === undefined || !offered.includes(name)) {
    return refuse(
      'unknown-command',
      typed,
      `Unknown command '/${typed}': expected one of ${offered.map((known) => `/${known}`).join(' ')}.`,
    );
  }
  const parsed = parseArguments(name, (match?.[2] ?? '').trim());
  return 'kind' in parsed ? parsed : { kind: 'command', command: parsed };
}
