/**
 * @module check-entries
 * A batch's entries, checked before anything is stored: each a plain JSON object with a string
 * `type` (and a string `uuid` when it has one), JSON all the way down. What the SDK's own JSONL round
 * trip changes without loss of meaning (`undefined` members, -0) is stored as that round trip leaves it.
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
  if (typeof value === 'object') {
    const type = (value as { type?: unknown }).type;
    return `an object with type ${type === undefined ? 'undefined' : JSON.stringify(type)}`;
  }
  return typeof value === 'string' ? `the string ${JSON.stringify(value.slice(0, 40))}` : typeof value;
}

function refuse(index: number, expected: string, value: unknown): never {
  throw new ClaudeStoreError(
    'INVALID_ENTRY',
    `Invalid entry at index ${String(index)} of the batch: expected ${expected}, received ${describe(value)}; nothing of the batch was stored.`,
  );
}

/** Where `value` stops being JSON, or undefined; `copy` receives the JSON it stands for. */
function jsonProblem(value: unknown, depth: number): { problem: string } | { copy: unknown } {
  if (depth > 512) return { problem: 'JSON nested at most 512 deep (no cycles)' };
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return { copy: value };
    case 'number':
      // -0 is what JSON.parse gives for "-0", and JSON.stringify writes it as 0: store 0.
      return Number.isFinite(value) ? { copy: value === 0 ? 0 : value } : { problem: 'finite numbers (no NaN or Infinity)' };
    case 'object': {
      if (value === null) return { copy: null };
      if (Array.isArray(value)) {
        const out: unknown[] = [];
        for (let index = 0; index < value.length; index++) {
          if (!(index in value) || value[index] === undefined) return { problem: 'arrays without holes or undefined elements' };
          const inner = jsonProblem(value[index], depth + 1);
          if ('problem' in inner) return inner;
          out.push(inner.copy);
        }
        return { copy: out };
      }
      if (!isPlainObject(value)) return { problem: 'plain objects only (no Date, Map or class instances)' };
      const out: Record<string, unknown> = {};
      for (const [name, member] of Object.entries(value)) {
        if (member === undefined) continue; // as JSON.stringify leaves it out
        const inner = jsonProblem(member, depth + 1);
        if ('problem' in inner) return inner;
        out[name] = inner.copy;
      }
      return { copy: out };
    }
    default:
      return { problem: `JSON values (no ${typeof value})` };
  }
}

/** The batch as it will be stored, or `INVALID_ENTRY` naming the first bad entry (nothing stored). */
export function checkEntries(entries: unknown): SessionStoreEntry[] {
  if (!Array.isArray(entries))
    throw new ClaudeStoreError('INVALID_ENTRY', `Invalid batch: expected an array of entries, received ${describe(entries)}.`);
  return entries.map((entry: unknown, index) => {
    if (!isPlainObject(entry) || typeof entry.type !== 'string') refuse(index, 'a plain JSON object with a string `type`', entry);
    if (entry.uuid !== undefined && typeof entry.uuid !== 'string') refuse(index, 'a string `uuid` (or none)', entry);
    if (isLosslessJson(entry)) return entry as SessionStoreEntry;
    const normalized = jsonProblem(entry, 0);
    if ('problem' in normalized) refuse(index, normalized.problem, entry);
    return normalized.copy as SessionStoreEntry;
  });
}
