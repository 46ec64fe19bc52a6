/**
 * @module hook-tools
 * The tools whose per-tool hooks run `dsh checkpoint` (SPEC §23): Claude Code and Codex (0.169's
 * command hooks take Claude Code's shape), and pi (no command hooks: dsh's extension runs it,
 * `pi-extension-file.ts`).
 */

/** The tools `dsh hooks` and `dsh checkpoint --from` accept. */
export const HOOK_TOOLS = ['claude-code', 'codex', 'pi'] as const;

/** One of `HOOK_TOOLS`. */
export type HookTool = (typeof HOOK_TOOLS)[number];

/** The tool's name in messages. */
export const HOOK_TOOL_NAMES: Readonly<Record<HookTool, string>> = { 'claude-code': 'Claude Code', codex: 'Codex', pi: 'pi' };

/** Whether `value` names a hook tool. */
export function isHookTool(value: unknown): value is HookTool {
  return typeof value === 'string' && (HOOK_TOOLS as readonly string[]).includes(value);
}
