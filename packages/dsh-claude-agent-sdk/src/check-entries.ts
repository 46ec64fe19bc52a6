/**
 * @module check-entries
 * A batch's entries, checked before anything is stored: each a plain JSON object with a string
 * `type` (and a string `uuid` when it has one), JSON all the way down, within `MAX_ENTRY_BYTES`, the
 * batch within `MAX_BATCH_BYTES`. What the SDK's own JSONL round trip changes without loss of meaning
 * (`undefined` members, -0) is stored as that round trip leaves it. Entries are read once, into copies:
 * a getter or proxy that throws is a refusal, and one that answers differently later changes nothing.
 */
import { copyLosslessJson } from 'dsh-codec';
import { ClaudeStoreError } from './claude-store-error.js';
import type { SessionStoreEntry } from './claude-types.js';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}

/** The most one entry may hold, as JSON in UTF-8: 64 MiB (a transcript entry with a large attachment fits). */
export const MAX_ENTRY_BYTES = 64 * 1024 * 1024;
/** The most one batch may hold, as JSON in UTF-8: 256 MiB. */
export const MAX_BATCH_BYTES = 256 * 1024 * 1024;

function describe(value: unknown): string {
  try {
    return describeUnsafe(value);
  } catch {
    return 'a value that throws when read';
  }
}

function describeUnsafe(value: unknown): string {
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

/** Whether `error` is a refusal of this module (a hostile throw may be a proxy whose traps throw). */
function isRefusal(error: unknown): error is ClaudeStoreError {
  try {
    return error instanceof ClaudeStoreError;
  } catch {
    return false;
  }
}

/** What a hostile value threw, said without reading anything that could throw again. */
function thrownMessage(error: unknown): string {
  try {
    return error instanceof Error ? error.message.slice(0, 200) : typeof error;
  } catch {
    return 'an unreadable error';
  }
}

/** The UTF-8 size of `entry` as JSON; over `limit` (or too long to write at all) is Infinity. */
function jsonBytes(entry: unknown, limit: number): number {
  let text: string;
  try {
    text = JSON.stringify(entry);
  } catch {
    return Infinity; // a RangeError: longer than a string may be
  }
  // A UTF-16 code unit is 1 to 3 UTF-8 bytes: count exactly only when it matters.
  if (text.length > limit) return Infinity;
  return text.length * 3 <= limit ? text.length : Buffer.byteLength(text);
}

/** One entry as it will be stored (a fresh copy), or `INVALID_ENTRY` naming it. */
function checkEntry(entry: unknown, index: number): SessionStoreEntry {
  if (!isPlainObject(entry) || typeof entry.type !== 'string') refuse(index, 'a plain JSON object with a string `type`', entry);
  if (entry.uuid !== undefined && typeof entry.uuid !== 'string') refuse(index, 'a string `uuid` (or none)', entry);
  const copy = copyLosslessJson(entry);
  if (copy !== undefined) return copy as SessionStoreEntry;
  const normalized = jsonProblem(entry, 0);
  if ('problem' in normalized) refuse(index, normalized.problem, entry);
  return normalized.copy as SessionStoreEntry;
}

/**
 * The batch as it will be stored (copies), or `INVALID_ENTRY` naming the first bad entry — also one
 * over `MAX_ENTRY_BYTES`, a batch over `MAX_BATCH_BYTES`, and a getter or proxy that throws while
 * read; nothing is stored. Never throws anything but `ClaudeStoreError`.
 */
export function checkEntries(entries: unknown): SessionStoreEntry[] {
  let index = -1;
  try {
    if (!Array.isArray(entries))
      throw new ClaudeStoreError('INVALID_ENTRY', `Invalid batch: expected an array of entries, received ${describe(entries)}.`);
    const length = entries.length;
    const checked: SessionStoreEntry[] = [];
    let batchBytes = 0;
    for (index = 0; index < length; index++) {
      if (!(index in entries)) refuse(index, 'an entry (the batch has a hole here)', undefined);
      const entry = checkEntry(entries[index], index);
      const bytes = jsonBytes(entry, MAX_ENTRY_BYTES);
      if (bytes > MAX_ENTRY_BYTES) {
        throw new ClaudeStoreError(
          'INVALID_ENTRY',
          `Invalid entry at index ${String(index)} of the batch: expected at most ${String(MAX_ENTRY_BYTES)} bytes of JSON (64 MiB), received ${describe(entry)} over that; nothing of the batch was stored.`,
        );
      }
      batchBytes += bytes;
      if (batchBytes > MAX_BATCH_BYTES) {
        throw new ClaudeStoreError(
          'INVALID_ENTRY',
          `Invalid batch: expected at most ${String(MAX_BATCH_BYTES)} bytes of JSON (256 MiB) in one batch, received more by entry ${String(index)}; nothing of the batch was stored.`,
        );
      }
      checked.push(entry);
    }
    return checked;
  } catch (error) {
    if (isRefusal(error)) throw error;
    // A getter, a proxy trap or an array-like that throws while the batch is read.
    const where = index < 0 ? 'Invalid batch' : `Invalid entry at index ${String(index)} of the batch`;
    throw new ClaudeStoreError(
      'INVALID_ENTRY',
      `${where}: expected plain JSON data, received a value whose reading threw (${thrownMessage(error)}); nothing of the batch was stored.`,
      { cause: error },
    );
  }
}
