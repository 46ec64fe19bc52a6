/**
 * @module permission-options
 * Claude Code's permission flags in print mode (SPEC §25): accepted, said once on stderr.
 */
import type { CliContext } from './cli-context.js';
import { toolsToRemove } from './claude-tool-names.js';
import type { OptionValues } from './parse-command-line.js';
import { cliTools } from './with-host.js';

/**
 * Claude Code's permission flags (SPEC §25): accepted with one stderr line, since dsh has no permission
 * prompts; `--disallowedTools` removes tools from availability (returned), never loosening it.
 */
export function permissionOptions(context: CliContext, values: OptionValues): string[] | undefined {
  const given = ['allowedTools', 'permission-mode', 'dangerously-skip-permissions'].filter((flag) => values[flag] !== undefined);
  if (given.length > 0) {
    context.stderr.write(
      `dsh: ${given.map((flag) => `--${flag}`).join(', ')} accepted: dsh has no permission prompts, so every available tool runs; --tools a,b restricts which tools are available (--disallowedTools removes some)\n`,
    );
  }
  const disallowed = values.disallowedTools;
  if (disallowed === undefined) return undefined;
  const entries = Array.isArray(disallowed) ? disallowed : [String(disallowed)];
  const { remove, unknown } = toolsToRemove(
    entries,
    cliTools().map((tool) => tool.name),
  );
  if (unknown.length > 0) {
    context.stderr.write(
      `dsh: --disallowedTools: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a tool dsh has (its tools: ${cliTools()
        .map((tool) => tool.name)
        .join(', ')}), so there is nothing to remove\n`,
    );
  }
  return remove;
}
