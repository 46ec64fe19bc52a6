/**
 * @module spread-tool-lists
 * Claude Code's `--allowedTools Read Bash` and `--disallowedTools Edit Write`: the list may follow the
 * flag as separate words, as Claude Code takes it (SPEC §25). Each such word becomes its own
 * `--allowedTools WORD`, so the option parser sees a repeated option and the prompt stays the prompt.
 */

const LIST_FLAGS: readonly string[] = ['--allowedTools', '--disallowedTools'];

/**
 * A word that names a tool: Claude Code's (`Read`, `WebFetch`, `Bash(git log:*)`, `mcp__server__tool`)
 * or dsh's (`read_file`). A prompt ("fix the bug", "hello") is not one.
 */
const TOOL_WORD = /^(?:[A-Z][A-Za-z0-9]*|mcp__[\w-]+|[a-z]+_[a-z_]+)(?:\([^)]*\))?$/;

/** `argv` with the tool words after `--allowedTools X` / `--disallowedTools X` each given their own flag. */
export function spreadToolLists(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    out.push(arg);
    if (!LIST_FLAGS.includes(arg) || index + 1 >= argv.length) continue;
    out.push(argv[index + 1] as string);
    index += 1;
    while (index + 1 < argv.length && TOOL_WORD.test(argv[index + 1] as string)) {
      out.push(arg, argv[index + 1] as string);
      index += 1;
    }
  }
  return out;
}
