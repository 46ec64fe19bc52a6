/**
 * pi's built-in tools and what re-running them risks; extension tools are `unknown`.
 */
import type { ToolEffect } from 'dsh-codec';
import { effectTable } from '../effect-table.js';

/** Built-in pi tool name → effect. */
export const PI_EFFECTS: Readonly<Record<string, ToolEffect>> = {
  read: 'read-only',
  ls: 'read-only',
  find: 'read-only',
  grep: 'read-only',
  bash: 'side-effect',
  edit: 'side-effect',
  write: 'side-effect',
};

/** The effect of a pi tool call by name. */
export const piEffectOf = effectTable(PI_EFFECTS);
