/**
 * @module copy-entries
 * Fresh, mutable copies of stored entries for `load`: dsh keeps logged events frozen and shares
 * them, and the SDK owns what it loads. One walk over plain JSON (objects, arrays, primitives), about
 * twice as fast as a `JSON.stringify` + `JSON.parse` round trip of the same entries.
 */
import type { SessionStoreEntry } from './claude-types.js';

function copyValue(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copyValue(value[index]);
    return out;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const copy = copyValue((value as Record<string, unknown>)[key]);
    // A "__proto__" member (JSON.parse makes it an own property) must stay one, not set the prototype.
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out;
}

/** Deep copies of `entries` (stored entries are JSON: plain objects, arrays and primitives only). */
export function copyEntries(entries: readonly SessionStoreEntry[]): SessionStoreEntry[] {
  return entries.map((entry) => copyValue(entry) as SessionStoreEntry);
}
