/**
 * OpenAI Codex's built-in tools and what re-running them risks; anything else is `unknown`.
 */
import type { ToolEffect } from 'dsh-codec';
import { effectTable } from '../effect-table.js';

/** Built-in Codex tool name → effect. */
export const CODEX_EFFECTS: Readonly<Record<string, ToolEffect>> = {
  shell: 'side-effect',
  container_exec: 'side-effect',
  local_shell: 'side-effect',
  exec_command: 'side-effect',
  write_stdin: 'side-effect',
  apply_patch: 'side-effect',
  update_plan: 'idempotent',
  view_image: 'read-only',
  read_file: 'read-only',
  list_dir: 'read-only',
  grep_files: 'read-only',
  tool_search: 'read-only',
  web_search: 'read-only',
};

/** The effect of a Codex tool call by name. */
export const codexEffectOf = effectTable(CODEX_EFFECTS);
