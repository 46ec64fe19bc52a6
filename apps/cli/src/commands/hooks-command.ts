/**
 * @module hooks-command
 * `dsh hooks install|remove claude-code [--project DIR | --user]` (SPEC §23): dsh's PreToolUse and
 * PostToolUse hooks merged into Claude Code's settings file, or exactly they taken out again.
 */
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { addDshHooks, parseClaudeSettings, removeDshHooks } from '../claude-hooks/claude-settings-hooks.js';
import { claudeSettingsPath, readClaudeSettings, writeClaudeSettings } from '../claude-hooks/claude-settings-file.js';
import { dshHookCommand } from '../claude-hooks/dsh-hook-command.js';
import { terminalLine } from '../terminal-text.js';

const ACTIONS = ['install', 'remove'] as const;
const TOOLS = ['claude-code'] as const;

/** Installs or removes dsh's hooks; prints what changed (text, or `--json` `{ settings, command, added | removed }`). */
export async function hooksCommand(context: CliContext, values: OptionValues, positionals: readonly string[]): Promise<number> {
  const [action = '', tool = ''] = positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliError('USAGE', `dsh hooks: expected install or remove, received '${action}'.`, { hint: 'dsh hooks install claude-code' });
  if (!(TOOLS as readonly string[]).includes(tool))
    throw new CliError(
      'USAGE',
      `dsh hooks ${action}: expected claude-code (Codex and pi have no per-tool hook dsh uses; see docs/workspace.md), received '${tool}'.`,
    );
  const path = claudeSettingsPath(context, {
    user: values.user === true,
    project: typeof values.project === 'string' ? values.project : undefined,
  });
  const command = dshHookCommand(resolveDataDir(context, values.data));
  const existing = await readClaudeSettings(path);
  const settings = parseClaudeSettings(existing?.text ?? '', path);
  const changed = action === 'install' ? addDshHooks(settings, command) : removeDshHooks(settings, command);
  const count = 'added' in changed ? changed.added : changed.removed;
  if (count > 0) await writeClaudeSettings(path, changed.settings, existing);
  if (values.json === true) {
    context.stdout.write(`${JSON.stringify({ settings: path, command, [action === 'install' ? 'added' : 'removed']: count })}\n`);
    return 0;
  }
  const what =
    action === 'install'
      ? count === 0
        ? 'already installed: nothing changed'
        : `added ${String(count)} hook(s) (PreToolUse, PostToolUse)`
      : count === 0
        ? 'no dsh hook there: nothing changed'
        : `removed ${String(count)} hook(s)`;
  context.stdout.write(`${terminalLine(path)}: ${what}\n  command: ${terminalLine(command)}\n`);
  return 0;
}
