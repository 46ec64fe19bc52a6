/**
 * @module The blocks of Claude Code entries in the current format: a response block (text, tool use,
 * thinking kept with its signature), a tool result's content, the usage fields, and a placeholder text
 * (counted in the warnings) for a block dsh does not keep.
 */
import type { ContentBlock, JsonObject } from 'dsh-codec';
import { ANTHROPIC_WIRE, argumentsText, asRecord, asString, reasoning, text } from '../read-transcript.js';
import type { WarningTally } from '../source-item.js';

/** The object blocks of a content array (none for anything else). */
export function blocksOf(value: unknown): Record<string, unknown>[] {
  if (!Array.isArray(value)) return [];
  const items = value as unknown[];
  // Content arrays hold objects only, as Claude Code writes them: the array itself, not a copy.
  for (const item of items)
    if (asRecord(item) === undefined) return items.map(asRecord).filter((block): block is Record<string, unknown> => block !== undefined);
  return items as Record<string, unknown>[];
}

/** A non-text block as a placeholder text, counted in the warnings. */
export function placeholder(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  const type = asString(block.type) ?? 'unknown';
  tally.add(`${type} blocks kept as text placeholders`, line);
  if (type === 'image') {
    const source = asRecord(block.source);
    const mediaType = asString(source?.media_type);
    return text(`[image${mediaType === undefined ? '' : `: ${mediaType}`}]`);
  }
  return text(`[${type} block]`);
}

/** A tool result's content: its text blocks, anything else as a placeholder. */
export function resultContent(value: unknown, line: number, tally: WarningTally): ContentBlock[] {
  if (typeof value === 'string') return [text(value)];
  return blocksOf(value).map((block) =>
    block.type === 'text' && typeof block.text === 'string' ? text(block.text) : placeholder(block, line, tally),
  );
}

const USAGE_FIELDS: readonly (readonly [string, string])[] = [
  ['input_tokens', 'inputTokens'],
  ['output_tokens', 'outputTokens'],
  ['cache_read_input_tokens', 'cacheReadTokens'],
  ['cache_creation_input_tokens', 'cacheWriteTokens'],
];

/** The usage fields dsh records, renamed (undefined when none is a finite number). */
export function usageOf(value: unknown): JsonObject | undefined {
  const usage = asRecord(value);
  if (usage === undefined) return undefined;
  let out: JsonObject | undefined;
  for (const [from, to] of USAGE_FIELDS) {
    const n = usage[from];
    if (typeof n === 'number' && Number.isFinite(n)) (out ??= {})[to] = n;
  }
  return out;
}

/** A response block in the current format. */
export function responseBlock(block: Record<string, unknown>, line: number, tally: WarningTally): ContentBlock {
  if (block.type === 'text' && typeof block.text === 'string') return text(block.text);
  if (block.type === 'tool_use')
    return { type: 'tool-call', id: String(block.id), name: String(block.name), arguments: argumentsText(block.input) };
  if (block.type === 'thinking' && typeof block.thinking === 'string') {
    // The signature is what the Messages API verifies when the block comes back: kept verbatim.
    const signature = asString(block.signature);
    return reasoning(block.thinking, signature === undefined ? undefined : { wire: ANTHROPIC_WIRE, signature });
  }
  if (block.type === 'redacted_thinking' && typeof block.data === 'string')
    return reasoning('', { wire: ANTHROPIC_WIRE, redactedData: block.data });
  return placeholder(block, line, tally);
}
