/**
 * A batch's entries, checked before anything is stored: each a plain JSON object with a string
 * `type` (and a string `uuid` when it has one). Values the SDK's own JSONL round trip would change
 * (`undefined` members, -0) are stored as that round trip leaves them.
 */
import { isLosslessJson } from 'dsh-codec';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionStoreEntry } from './claude-types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return `an object with type ${JSON.stringify((value as { type?: unknown }).type) ?? 'undefined'}`;
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

function refuse(index: number, expected: string, value: unknown, cause?: unknown): never {
  throw new ClaudeStoreError('INVALID_ENTRY', `Invalid entry at index ${String(index)} of the batch: expected ${expected}, received ${describe(value)}; nothing of the batch was stored.`, {
    cause,
  });
}

/** The batch as it will be stored, or `INVALID_ENTRY` naming the first bad entry (nothing stored). */
export function checkEntries(entries: unknown): SessionStoreEntry[] {
  if (!Array.isArray(entries)) throw new ClaudeStoreError('INVALID_ENTRY', `Invalid batch: expected an array of entries, received ${describe(entries)}.`);
  return entries.map((entry: unknown, index) => {
    if (!isPlainObject(entry) || typeof entry.type !== 'string') refuse(index, 'a plain JSON object with a string `type`', entry);
    if (entry.uuid !== undefined && typeof entry.uuid !== 'string') refuse(index, 'a string `uuid` (or none)', entry);
    if (isLosslessJson(entry)) return entry as SessionStoreEntry;
    let copy: unknown;
    try {
      copy = JSON.parse(JSON.stringify(entry));
    } catch (error) {
      refuse(index, 'JSON (no cycles, no bigint)', entry, error);
    }
    if (!isLosslessJson(copy)) refuse(index, 'JSON (no NaN or Infinity)', entry);
    return copy as SessionStoreEntry;
  });
}
