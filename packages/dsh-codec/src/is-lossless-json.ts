import { MAX_JSON_DEPTH } from './v0/find-lossy-json.js';
import type { JsonValue } from './types.js';

/**
 * Whether `value` survives `JSON.stringify` → `JSON.parse` unchanged (SPEC §3.1): no `undefined`,
 * NaN, ±Infinity, -0, bigint, sparse arrays, cycles or non-plain objects. Never throws.
 */
export function isLosslessJson(value: unknown): value is JsonValue {
  return isLossless(value, []);
}

/**
 * The same rule as the frozen `findLossyJson` (which also says where and why), as one recursive
 * pass that allocates little for ordinary objects. `ancestors`: the containers above `value`.
 */
function isLossless(value: unknown, ancestors: object[]): boolean {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return true;
    case 'number':
      return Number.isFinite(value) && (value !== 0 || 1 / value > 0);
    case 'object':
      break;
    default:
      return false;
  }
  if (value === null) return true;
  // A cycle, or nesting JSON.stringify could not write back.
  if (ancestors.length >= MAX_JSON_DEPTH || ancestors.includes(value)) return false;
  ancestors.push(value);
  const lossless = Array.isArray(value) ? isLosslessArray(value as unknown[], ancestors) : isLosslessObject(value, ancestors);
  ancestors.pop();
  return lossless;
}

function isLosslessArray(items: unknown[], ancestors: object[]): boolean {
  if (Object.getPrototypeOf(items) !== Array.prototype) return false;
  for (let index = 0; index < items.length; index++) {
    if (!(index in items) || !isLossless(items[index], ancestors)) return false;
  }
  return Object.keys(items).length === items.length;
}

function isLosslessObject(value: object, ancestors: object[]): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return false;
  // Every own key must be an enumerable string key: count those, then compare with all own keys.
  let own = 0;
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    own++;
    if (!isLossless((value as Record<string, unknown>)[key], ancestors)) return false;
  }
  return Reflect.ownKeys(value).length === own;
}
