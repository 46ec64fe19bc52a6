/**
 * @module claude-tool-names
 * Claude Code's tool names → the dsh tools that do that work, for `--disallowedTools` (SPEC §25): a
 * removal maps to every dsh tool that could do what the Claude tool does, so it is never looser.
 */

/** Claude Code tool → dsh tools covering it (`[]`: dsh has no such tool, so nothing is available to remove). */
export const CLAUDE_TOOL_NAMES: Readonly<Record<string, readonly string[]>> = {
  Read: ['read_file'],
  Write: ['write_file', 'make_dir'],
  Edit: ['write_file'],
  MultiEdit: ['write_file'],
  NotebookEdit: ['write_file'],
  Glob: ['list_files'],
  LS: ['list_files'],
  Grep: ['read_file', 'list_files'],
  Bash: [],
  WebFetch: [],
  WebSearch: [],
  Task: [],
  TodoWrite: [],
};

/**
 * The dsh tools `--disallowedTools` entries remove: dsh names as they are, Claude names through
 * `CLAUDE_TOOL_NAMES`; a pattern such as `Edit(src/**)` removes the whole tool (stricter). Entries
 * naming no tool dsh has (`Bash` included) are returned in `unknown`.
 */
export function toolsToRemove(entries: readonly string[], dshTools: readonly string[]): { remove: string[]; unknown: string[] } {
  const remove = new Set<string>();
  const unknown: string[] = [];
  for (const entry of entries.flatMap((value) => value.match(/[^,\s(]+(\([^)]*\)?)?/g) ?? [])) {
    const name = entry.replace(/\(.*$/, '');
    if (dshTools.includes(name)) remove.add(name);
    else {
      const covering = Object.hasOwn(CLAUDE_TOOL_NAMES, name) ? (CLAUDE_TOOL_NAMES[name] ?? []) : [];
      if (covering.length === 0) unknown.push(name);
      for (const tool of covering) remove.add(tool);
    }
  }
  return { remove: [...remove], unknown };
}
