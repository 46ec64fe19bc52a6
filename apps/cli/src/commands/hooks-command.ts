/**
 * @module hooks-command
 * `dsh hooks install|remove claude-code|codex|pi [--project DIR | --user]` (SPEC §23): dsh's PreToolUse and
 * PostToolUse hooks merged into Claude Code's settings file or Codex's hooks.json, or exactly they
 * taken out again. Codex runs a hook only once its user trusted it: dsh does not trust it for them
 * (that is Codex's review step, `/hooks`); it says so. pi has no command hooks: dsh writes (or
 * removes) its one extension file instead (`pi-extension-file.ts`), which pi loads unreviewed; it says so.
 */
import { resolveDataDir, type CliContext } from '../cli-context.js';
import { CliError } from '../cli-error.js';
import type { OptionValues } from '../parse-command-line.js';
import { addDshHooks, parseClaudeSettings, removeDshHooks } from '../tool-hooks/claude-settings-hooks.js';
import { claudeSettingsPath, readClaudeSettings, writeClaudeSettings } from '../tool-hooks/claude-settings-file.js';
import { codexHooksPath } from '../tool-hooks/codex-hooks-file.js';
import { dshHookArgv, dshHookCommand } from '../tool-hooks/dsh-hook-command.js';
import { HOOK_TOOL_NAMES, HOOK_TOOLS, isHookTool } from '../tool-hooks/hook-tools.js';
import { installPiExtension, piExtensionPath, removePiExtension } from '../tool-hooks/pi-extension-file.js';
import { piExtensionSource } from '../tool-hooks/pi-extension-source.js';
import { shellCommand } from '../shell-command.js';
import { terminalLine } from '../terminal-text.js';

const ACTIONS = ['install', 'remove'] as const;

/** What Codex needs before it runs a hook it has not reviewed (said after every Codex install). */
const CODEX_TRUST_NOTE =
  'Codex runs these hooks only once you trust them: start `codex`, open /hooks and trust the two dsh hooks ' +
  '(a project file loads only in a project Codex trusts); dsh does not trust them for you. ' +
  '`codex exec --dangerously-bypass-hook-trust` runs them for one invocation without review.';

/** What pi does with an extension it finds (said after every pi install). */
const PI_LOAD_NOTE =
  'pi loads it at its next start (or /reload) and runs it with your permissions, without a review step; ' +
  "a project folder's extension loads whenever pi starts in that folder.";

/** `dsh hooks install|remove pi`: dsh's extension file written or removed; prints `{ extension, command, added | removed }`. */
async function piHooks(context: CliContext, values: OptionValues, action: string): Promise<number> {
  const where = { user: values.user === true, project: typeof values.project === 'string' ? values.project : undefined };
  const path = piExtensionPath(context, where);
  const argv = dshHookArgv(resolveDataDir(context, values.data), 'pi');
  const command = shellCommand(argv);
  const outcome = action === 'install' ? await installPiExtension(path, piExtensionSource(argv)) : await removePiExtension(path);
  const count = outcome === 'added' || outcome === 'replaced' || outcome === 'removed' ? 1 : 0;
  if (values.json === true) {
    context.stdout.write(
      `${JSON.stringify({ extension: path, command, [action === 'install' ? 'added' : 'removed']: count, ...(outcome === 'replaced' ? { replaced: true } : {}), ...(action === 'install' ? { load: PI_LOAD_NOTE } : {}) })}\n`,
    );
    return 0;
  }
  const what = {
    added: "wrote dsh's checkpoint extension (tool_call, tool_result)",
    replaced: "replaced dsh's checkpoint extension (its command changed)",
    unchanged: 'already installed: nothing changed',
    removed: "removed dsh's checkpoint extension",
    absent: 'no dsh extension there: nothing changed',
  }[outcome];
  context.stdout.write(
    `${terminalLine(path)}: ${what}\n  command: ${terminalLine(command)}\n${action === 'install' ? `  ${PI_LOAD_NOTE}\n` : ''}`,
  );
  return 0;
}

/** Installs or removes dsh's hooks; prints what changed (text, or `--json` `{ settings, command, added | removed }`). */
export async function hooksCommand(context: CliContext, values: OptionValues, positionals: readonly string[]): Promise<number> {
  const [action = '', tool = ''] = positionals;
  if (!(ACTIONS as readonly string[]).includes(action))
    throw new CliError('USAGE', `dsh hooks: expected install or remove, received '${action}'.`, { hint: 'dsh hooks install claude-code' });
  if (!isHookTool(tool)) throw new CliError('USAGE', `dsh hooks ${action}: expected ${HOOK_TOOLS.join(', ')}, received '${tool}'.`);
  if (tool === 'pi') return piHooks(context, values, action);
  const where = { user: values.user === true, project: typeof values.project === 'string' ? values.project : undefined };
  const path = tool === 'codex' ? codexHooksPath(context, where) : claudeSettingsPath(context, where);
  const command = dshHookCommand(resolveDataDir(context, values.data), tool);
  const existing = await readClaudeSettings(path);
  const settings = parseClaudeSettings(existing?.text ?? '', path, HOOK_TOOL_NAMES[tool]);
  const changed = action === 'install' ? addDshHooks(settings, command) : removeDshHooks(settings, command);
  const count = 'added' in changed ? changed.added : changed.removed;
  if (count > 0) await writeClaudeSettings(path, changed.settings, existing);
  const trust = tool === 'codex' && action === 'install' ? CODEX_TRUST_NOTE : undefined;
  if (values.json === true) {
    context.stdout.write(
      `${JSON.stringify({ settings: path, command, [action === 'install' ? 'added' : 'removed']: count, ...(trust === undefined ? {} : { trust }) })}\n`,
    );
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
  context.stdout.write(`${terminalLine(path)}: ${what}\n  command: ${terminalLine(command)}\n${trust === undefined ? '' : `  ${trust}\n`}`);
  return 0;
}
