/**
 * @module `copyJsonTree`: a new, unfrozen copy of a JSON tree (plain objects, arrays, primitives) for a
 * caller that owns what it gets — nothing in it is shared with the value it was copied from.
 */

/** A deep copy of `value`, a JSON tree; an own `"__proto__"` member stays an own member (as `JSON.parse` makes it). */
export function copyJsonTree<T>(value: T): T {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let index = 0; index < value.length; index++) out[index] = copyJsonTree(value[index] as unknown);
    return out as T;
  }
  const out: Record<string, unknown> = {};
  for (const key in value) {
    const copy = copyJsonTree((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
