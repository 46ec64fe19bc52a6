/**
 * The small allocation-free guards the hand-written payload fast paths (V4, V5) are built from.
 * Each answers for plain JSON only (the lossless check runs first).
 */

/** A JSON object (not an array). */
export type JsonRecord = Record<string, unknown>;

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether every key of `value` is in `allowed`. */
export function keysWithin(value: JsonRecord, allowed: ReadonlySet<string>): boolean {
  for (const key in value) if (!allowed.has(key)) return false;
  return true;
}

/** A turn or step number: a safe integer ≥ 1. */
export function isOrdinal(value: unknown): boolean {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** A non-empty string. */
export function isId(value: unknown): boolean {
  return typeof value === 'string' && value !== '';
}

const TEXT_KEYS: ReadonlySet<string> = new Set(['type', 'text']);
const CALL_KEYS: ReadonlySet<string> = new Set(['type', 'id', 'name', 'arguments']);

/** A sound `{ type: "text", text }` block. */
export function isTextBlock(block: JsonRecord): boolean {
  return block.type === 'text' && typeof block.text === 'string' && keysWithin(block, TEXT_KEYS);
}

/** A sound `{ type: "tool-call", id, name, arguments }` block. */
export function isToolCallBlock(block: JsonRecord): boolean {
  return (
    block.type === 'tool-call' && isId(block.id) && isId(block.name) && typeof block.arguments === 'string' && keysWithin(block, CALL_KEYS)
  );
}

/** Whether `value` is an array of objects each of which `isBlock` accepts. */
export function isContentOf(value: unknown, isBlock: (block: JsonRecord) => boolean): boolean {
  if (!Array.isArray(value)) return false;
  for (const block of value) if (!isObject(block) || !isBlock(block)) return false;
  return true;
}
