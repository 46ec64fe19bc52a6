/**
 * @module claude-settings-hooks
 * dsh's `PreToolUse` / `PostToolUse` hooks in a Claude Code settings object (SPEC §23): added beside
 * whatever hooks are there, never twice, and taken out again by their exact command. Pure: the
 * settings file itself is read and written by `claude-settings-file.ts`.
 */
import { CliError } from '../cli-error.js';

/** The hook events dsh checkpoints at: before and after every tool call. */
export const DSH_HOOK_EVENTS = ['PreToolUse', 'PostToolUse'] as const;

/** Seconds Claude Code lets dsh's hook run (the checkpoint's own budget is 2 s; the rest is start-up). */
export const DSH_HOOK_TIMEOUT_SECONDS = 30;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === undefined) return 'none';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function fixHint(tool: string): string {
  return `fix the settings file by hand (${tool} reads the same JSON), then run the command again`;
}

function malformed(path: string, where: string, expected: string, got: unknown, tool: string): CliError {
  return new CliError('INVALID_SETTINGS', `${path}: expected ${where} to be ${expected}; got ${kindOf(got)}. Nothing was written.`, {
    hint: fixHint(tool),
  });
}

/**
 * The settings object of Claude Code settings text, or of a Codex `hooks.json` (the same `hooks`
 * shape; `tool` names it in messages) — empty text: `{}`. Refuses `INVALID_SETTINGS` for text that is
 * not a JSON object or whose `hooks` do not have that shape.
 */
export function parseClaudeSettings(text: string, path: string, tool = 'Claude Code'): JsonObject {
  if (text.trim() === '') return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new CliError('INVALID_SETTINGS', `${path} is not valid JSON (${(error as Error).message}). Nothing was written.`, {
      hint: fixHint(tool),
    });
  }
  if (!isObject(parsed)) throw malformed(path, 'the settings', 'a JSON object', parsed, tool);
  checkHooksShape(parsed, path, tool);
  return parsed;
}

function checkHooksShape(settings: JsonObject, path: string, tool: string): void {
  const hooks = settings.hooks;
  if (hooks === undefined) return;
  if (!isObject(hooks)) throw malformed(path, '"hooks"', 'an object of hook events', hooks, tool);
  for (const event of DSH_HOOK_EVENTS) {
    const groups = hooks[event];
    if (groups === undefined) continue;
    if (!Array.isArray(groups)) throw malformed(path, `"hooks.${event}"`, 'an array of matcher groups', groups, tool);
    groups.forEach((group: unknown, index) => {
      if (!isObject(group)) throw malformed(path, `"hooks.${event}[${String(index)}]"`, 'an object { matcher, hooks }', group, tool);
      if (!Array.isArray(group.hooks))
        throw malformed(path, `"hooks.${event}[${String(index)}].hooks"`, 'an array of hooks', group.hooks, tool);
    });
  }
}

function isOurs(hook: unknown, command: string): boolean {
  return isObject(hook) && hook.type === 'command' && hook.command === command;
}

/**
 * `settings` with dsh's hook (`command`) on every tool call before and after, each event's existing
 * groups kept in order; an event that already runs `command` is left as it is. Returns the new object
 * and how many hooks were added (0: installing again changes nothing).
 */
export function addDshHooks(settings: JsonObject, command: string): { settings: JsonObject; added: number } {
  const hooks: JsonObject = isObject(settings.hooks) ? { ...settings.hooks } : {};
  let added = 0;
  for (const event of DSH_HOOK_EVENTS) {
    const groups = Array.isArray(hooks[event]) ? (hooks[event] as unknown[]) : [];
    const present = groups.some(
      (group) => isObject(group) && Array.isArray(group.hooks) && group.hooks.some((hook) => isOurs(hook, command)),
    );
    if (present) continue;
    hooks[event] = [...groups, { matcher: '*', hooks: [{ type: 'command', command, timeout: DSH_HOOK_TIMEOUT_SECONDS }] }];
    added += 1;
  }
  return { settings: { ...settings, hooks }, added };
}

/**
 * `settings` without the hooks whose command is exactly `command` (every other hook kept, in order); a
 * group left empty by that goes, and so does an event and a `hooks` object left empty. Returns how many
 * hooks were taken out.
 */
export function removeDshHooks(settings: JsonObject, command: string): { settings: JsonObject; removed: number } {
  if (!isObject(settings.hooks)) return { settings, removed: 0 };
  const hooks: JsonObject = { ...settings.hooks };
  let removed = 0;
  for (const event of DSH_HOOK_EVENTS) {
    const groups = hooks[event];
    if (!Array.isArray(groups)) continue;
    const kept: unknown[] = [];
    for (const group of groups) {
      if (!isObject(group) || !Array.isArray(group.hooks)) {
        kept.push(group);
        continue;
      }
      const others = group.hooks.filter((hook) => !isOurs(hook, command));
      removed += group.hooks.length - others.length;
      if (others.length === group.hooks.length) kept.push(group);
      else if (others.length > 0) kept.push({ ...group, hooks: others });
    }
    hooks[event] = kept;
  }
  if (removed === 0) return { settings, removed };
  // An event, or the whole hooks object, that held only dsh's hooks goes with them.
  const left = Object.fromEntries(Object.entries(hooks).filter(([, groups]) => !Array.isArray(groups) || groups.length > 0));
  const { hooks: _dropped, ...rest } = settings;
  return { settings: Object.keys(left).length === 0 ? rest : { ...settings, hooks: left }, removed };
}
