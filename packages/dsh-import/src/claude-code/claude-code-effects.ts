/**
 * Claude Code's built-in tools and what re-running them risks. MCP tools (`mcp__…`) and anything
 * else are `unknown`.
 */
import type { ToolEffect } from 'dsh-codec';
import { effectTable } from '../effect-table.js';

/** Built-in Claude Code tool name → effect. */
export const CLAUDE_CODE_EFFECTS: Readonly<Record<string, ToolEffect>> = {
  Read: 'read-only',
  Glob: 'read-only',
  Grep: 'read-only',
  LS: 'read-only',
  WebFetch: 'read-only',
  WebSearch: 'read-only',
  NotebookRead: 'read-only',
  BashOutput: 'read-only',
  TaskOutput: 'read-only',
  ListMcpResourcesTool: 'read-only',
  ReadMcpResourceTool: 'read-only',
  Write: 'side-effect',
  Edit: 'side-effect',
  MultiEdit: 'side-effect',
  NotebookEdit: 'side-effect',
  Bash: 'side-effect',
  KillShell: 'side-effect',
  KillBash: 'side-effect',
  TodoWrite: 'idempotent',
  ExitPlanMode: 'idempotent',
};

/** The effect of a Claude Code tool call by name. */
export const claudeCodeEffectOf = effectTable(CLAUDE_CODE_EFFECTS);
