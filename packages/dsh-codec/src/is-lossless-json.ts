/**
 * @module is-lossless-json
 * The lossless-JSON rule of SPEC §3.1 on the hot path: `isLosslessJson` (a check) and
 * `copyLosslessJson` (check and fresh copy in one walk), with the verdicts of `shared/find-lossy-json.ts`.
 */
import { MAX_JSON_DEPTH } from './shared/find-lossy-json.js';
import type { JsonValue } from './types.js';

/**
 * Whether `value` survives `JSON.stringify` → `JSON.parse` unchanged (SPEC §3.1): no `undefined`,
 * NaN, ±Infinity, -0, bigint, sparse arrays, cycles or non-plain objects. Never throws.
 */
export function isLosslessJson(value: unknown): value is JsonValue {
  return walk(value, [], false) !== LOSSY;
}

/**
 * A frozen copy of `value` made of fresh plain objects and arrays when it is lossless JSON (the rule
 * of `isLosslessJson`), else undefined: one walk where a check and then a copy would take two (an
 * append keeps a copy of its caller's data). Never throws.
 */
export function copyLosslessJson(value: unknown): JsonValue | undefined {
  const copy = walk(value, [], true);
  return copy === LOSSY ? undefined : (copy as JsonValue);
}

/** What a walk returns for a value that is not lossless JSON. */
const LOSSY: unique symbol = Symbol('lossy');

/**
 * The same rule as the frozen `findLossyJson` (which also says where and why), as one recursive
 * pass that allocates little for ordinary objects: `value` itself (or, with `copy`, a frozen copy)
 * when lossless, `LOSSY` otherwise. `ancestors`: the containers above `value`.
 */
function walk(value: unknown, ancestors: object[], copy: boolean): unknown {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) && (value !== 0 || 1 / value > 0) ? value : LOSSY;
    case 'object':
      break;
    default:
      return LOSSY;
  }
  if (value === null) return value;
  // A cycle, or nesting JSON.stringify could not write back.
  if (ancestors.length >= MAX_JSON_DEPTH || ancestors.includes(value)) return LOSSY;
  ancestors.push(value);
  const result = Array.isArray(value) ? walkArray(value as unknown[], ancestors, copy) : walkObject(value, ancestors, copy);
  ancestors.pop();
  return result;
}

function walkArray(items: unknown[], ancestors: object[], copy: boolean): unknown {
  if (Object.getPrototypeOf(items) !== Array.prototype) return LOSSY;
  const out: unknown[] | undefined = copy ? new Array<unknown>(items.length) : undefined;
  for (let index = 0; index < items.length; index++) {
    if (!(index in items)) return LOSSY;
    const item = walk(items[index], ancestors, copy);
    if (item === LOSSY) return LOSSY;
    if (out !== undefined) out[index] = item;
  }
  if (Object.keys(items).length !== items.length) return LOSSY;
  return out === undefined ? items : Object.freeze(out);
}

function walkObject(value: object, ancestors: object[], copy: boolean): unknown {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return LOSSY;
  const out: Record<string, unknown> | undefined = copy ? {} : undefined;
  // Every own key must be an enumerable string key: count those, then compare with all own keys.
  let own = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    own++;
    const child = walk((value as Record<string, unknown>)[key], ancestors, copy);
    if (child === LOSSY) return LOSSY;
    if (out === undefined) continue;
    // An own "__proto__" key stays a key (assignment would set the prototype instead).
    if (key === '__proto__') Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
    else out[key] = child;
  }
  if (Reflect.ownKeys(value).length !== own) return LOSSY;
  return out === undefined ? value : Object.freeze(out);
}
