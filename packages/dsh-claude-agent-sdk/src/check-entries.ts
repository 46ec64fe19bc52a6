/**
 * @module check-entries
 * A batch's entries, checked before anything is stored: each a plain JSON object with a string
 * `type` (and a string `uuid` when it has one), JSON all the way down, within `MAX_ENTRY_BYTES`, the
 * batch within `MAX_BATCH_BYTES`. What the SDK's own JSONL round trip changes without loss of meaning
 * (`undefined` members, -0) is stored as that round trip leaves it. Entries are read once, into copies:
 * a getter or proxy that throws is a refusal, and one that answers differently later changes nothing.
 * The copy is a `FrozenJson` the session keeps as it is: each entry is checked and copied once.
 */
import { FrozenJson } from 'dsh-codec';
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

/**
 * A cheap measure of `value` as JSON (no string is built) whose 6 times is at least its UTF-8 size:
 * JSON writes a code unit in at most 6 bytes, a number in at most 24, `false` in 5.
 */
function jsonMeasure(value: unknown): number {
  if (typeof value === 'string') return value.length + 2;
  if (typeof value === 'number') return 4;
  if (typeof value !== 'object' || value === null) return 1;
  let measure = 2;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) measure += jsonMeasure(item) + 1;
    return measure;
  }
  for (const key in value) measure += key.length + 4 + jsonMeasure((value as Record<string, unknown>)[key]);
  return measure;
}

/** The exact UTF-8 size of `entry` as JSON; Infinity when it is too long to be written at all. */
function jsonBytes(entry: unknown): number {
  try {
    return Buffer.byteLength(JSON.stringify(entry));
  } catch {
    return Infinity; // a RangeError: longer than a string may be
  }
}

/**
 * The batch's entries' sizes held to the bounds: an upper bound from `jsonMeasure` while it passes
 * them (a typical batch of KBs builds no string), exact sizes once it does not.
 */
class BatchBytes {
  private total = 0;
  private exact = false;
  private readonly entries: unknown[] = [];

  /** Adds `entry`; false when it alone is over `MAX_ENTRY_BYTES` (then `full()` says whether the batch is over). */
  add(entry: unknown): boolean {
    const upper = 6 * jsonMeasure(entry);
    let bytes = upper;
    if (this.exact || upper > MAX_ENTRY_BYTES) {
      bytes = jsonBytes(entry);
      if (bytes > MAX_ENTRY_BYTES) return false;
    }
    this.entries.push(entry);
    this.total += bytes;
    if (this.total > MAX_BATCH_BYTES && !this.exact) {
      // The upper bounds passed the batch's bound: count exactly from here on.
      this.exact = true;
      this.total = this.entries.reduce<number>((sum, item) => sum + jsonBytes(item), 0);
    }
    return true;
  }

  /** Whether the batch is over `MAX_BATCH_BYTES`. */
  full(): boolean {
    return this.total > MAX_BATCH_BYTES;
  }
}

/** One entry of a checked batch: the stored copy, and the same copy as the session keeps it. */
export type CheckedEntry = { readonly entry: SessionStoreEntry; readonly frozen: FrozenJson };

/** Refuses an entry that is not an object with a string `type` and, when it has one, a string `uuid`. */
function checkShape(entry: unknown, index: number): asserts entry is SessionStoreEntry {
  if (!isPlainObject(entry) || typeof entry.type !== 'string') refuse(index, 'a plain JSON object with a string `type`', entry);
  if (entry.uuid !== undefined && typeof entry.uuid !== 'string') refuse(index, 'a string `uuid` (or none)', entry);
}

/** One entry as it will be stored (a fresh frozen copy, its shape checked on the copy), or `INVALID_ENTRY` naming it. */
function checkEntry(entry: unknown, index: number): CheckedEntry {
  let frozen = FrozenJson.copy(entry);
  if (frozen === undefined) {
    // Not lossless as it is: what the SDK's JSONL round trip would make of it, copied (rare).
    checkShape(entry, index);
    const normalized = jsonProblem(entry, 0);
    if ('problem' in normalized) refuse(index, normalized.problem, entry);
    frozen = FrozenJson.copy(normalized.copy);
    if (frozen === undefined) refuse(index, 'lossless JSON', entry);
  }
  const copy: unknown = frozen.value;
  checkShape(copy, index);
  return { entry: copy, frozen };
}

/**
 * The batch as it will be stored (copies), or `INVALID_ENTRY` naming the first bad entry — also one
 * over `MAX_ENTRY_BYTES`, a batch over `MAX_BATCH_BYTES`, and a getter or proxy that throws while
 * read; nothing is stored. Never throws anything but `ClaudeStoreError`.
 */
export function checkEntries(entries: unknown): CheckedEntry[] {
  let index = -1;
  try {
    if (!Array.isArray(entries))
      throw new ClaudeStoreError('INVALID_ENTRY', `Invalid batch: expected an array of entries, received ${describe(entries)}.`);
    const length = entries.length;
    const checked: CheckedEntry[] = [];
    const batch = new BatchBytes();
    for (index = 0; index < length; index++) {
      if (!(index in entries)) refuse(index, 'an entry (the batch has a hole here)', undefined);
      const checkedEntry = checkEntry(entries[index], index);
      const { entry } = checkedEntry;
      if (!batch.add(entry)) {
        throw new ClaudeStoreError(
          'INVALID_ENTRY',
          `Invalid entry at index ${String(index)} of the batch: expected at most ${String(MAX_ENTRY_BYTES)} bytes of JSON (64 MiB), received ${describe(entry)} over that; nothing of the batch was stored.`,
        );
      }
      if (batch.full()) {
        throw new ClaudeStoreError(
          'INVALID_ENTRY',
          `Invalid batch: expected at most ${String(MAX_BATCH_BYTES)} bytes of JSON (256 MiB) in one batch, received more by entry ${String(index)}; nothing of the batch was stored.`,
        );
      }
      checked.push(checkedEntry);
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
