/**
 * What each format reader hands to `buildSessions`: the source's own session id and working
 * directory, its lines as item streams (main line first), and what it left out.
 */
import type { ContentBlock, ToolEffect } from 'dsh-codec';
import type { SourceItem } from './source-item.js';

/** The result of one format reader. */
export type ReadTranscript = {
  sessionId: string | undefined;
  cwd: string | undefined;
  createdAt: number | undefined;
  lines: SourceItem[][];
  warnings: string[];
  effectOf: (name: string) => ToolEffect;
};

/** A plain object, or undefined. */
export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/** A string, or undefined. */
export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Call arguments as raw JSON text: kept as written when the source stored text, else serialised. */
export function argumentsText(value: unknown): string {
  if (typeof value === 'string') return value;
  return JSON.stringify(value ?? {});
}

/** A text block. */
export function text(value: string): ContentBlock {
  return { type: 'text', text: value };
}

/** An effect table lookup: known names get their effect, every other name `unknown`. */
export function effectTable(table: Readonly<Record<string, ToolEffect>>): (name: string) => ToolEffect {
  return (name) => (Object.hasOwn(table, name) ? (table[name] as ToolEffect) : 'unknown');
}
