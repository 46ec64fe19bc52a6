/**
 * `effectTable`: a tool's built-in names → their effect, as the lookup every format's effect table
 * exports. A leaf, so the native fork's byte path counts effects without loading the readers.
 * @module
 */
import type { ToolEffect } from 'dsh-codec';

/** An effect table lookup: known names get their effect, every other name `unknown`. */
export function effectTable(table: Readonly<Record<string, ToolEffect>>): (name: string) => ToolEffect {
  return (name) => (Object.hasOwn(table, name) ? (table[name] as ToolEffect) : 'unknown');
}
