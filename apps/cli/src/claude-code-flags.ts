/**
 * @module claude-code-flags
 * Claude Code's print-mode flags dsh does not have, each with what dsh does instead (SPEC §25): a
 * `claude -p` script that passes one gets that sentence, never a bare "Unknown option".
 */

/** Claude Code flag (without dashes, as Claude spells it) → what dsh does instead. */
export const CLAUDE_CODE_ONLY_FLAGS: Readonly<Record<string, string>> = {
  'add-dir': "dsh's file tools reach one directory per session: give it with --cwd DIR",
  'mcp-config': 'dsh has no MCP client: its tools are the built-in file tools, restricted with --tools a,b',
  'strict-mcp-config': 'dsh has no MCP client: its tools are the built-in file tools, restricted with --tools a,b',
  settings: 'dsh reads no settings files: pass --model, --tools, --system-prompt on the command line',
  'setting-sources': 'dsh reads no settings files: pass --model, --tools, --system-prompt on the command line',
  'fallback-model': 'dsh runs the one model --model names (or the default, see `dsh --help`)',
  'permission-prompt-tool': 'dsh has no permission prompts: every available tool runs; --tools restricts availability',
  'include-partial-messages': '--output-format stream-json prints whole messages; --output-format events prints each event as it is stored',
  'replay-user-messages': 'dsh does not echo input messages; --output-format events includes each user/message event',
  agents: 'dsh has no subagents: fork the session instead (--resume ID --fork-session)',
  agent: 'dsh has no subagents: fork the session instead (--resume ID --fork-session)',
  'plugin-dir': 'dsh has no plugins',
  debug: '--verbose prints the session, model, tools and each event on stderr',
  'mcp-debug': 'dsh has no MCP client; --verbose prints each event on stderr',
  'json-schema': 'dsh has no structured output: ask for JSON in the prompt and read .result of --output-format json',
  'max-budget-usd': 'bound a run with --max-turns N (model requests)',
  betas: 'dsh sends no beta headers',
  'no-session-persistence': 'every dsh session is stored: remove one afterwards with `dsh delete ID`',
  'append-system-prompt-file': 'pass the text with --append-system-prompt "$(cat FILE)" (or replace it with --system-prompt-file FILE)',
  'disable-slash-commands': 'print mode runs no slash commands: drop the flag',
  ide: 'dsh connects to no IDE',
  chrome: 'dsh has no browser integration',
  'no-chrome': 'dsh has no browser integration: drop the flag',
};

/** `allowedTools`, `allowed-tools` and `ALLOWEDTOOLS` alike: Claude accepts both spellings. */
function normal(name: string): string {
  return name.toLowerCase().replace(/-/g, '');
}

/** What dsh does instead of Claude Code flag `name` (dashes and case ignored), or undefined for a flag Claude lacks too. */
export function claudeCodeOnlyFlag(name: string): { flag: string; instead: string } | undefined {
  const wanted = normal(name);
  for (const [flag, instead] of Object.entries(CLAUDE_CODE_ONLY_FLAGS)) if (normal(flag) === wanted) return { flag, instead };
  return undefined;
}
