import { findLossyJson } from './v0/find-lossy-json.js';
import type { JsonValue } from './types.js';

/**
 * Whether `value` survives `JSON.stringify` → `JSON.parse` unchanged (SPEC §3.1): no `undefined`,
 * NaN, ±Infinity, -0, bigint, sparse arrays, cycles or non-plain objects. Never throws.
 */
export function isLosslessJson(value: unknown): value is JsonValue {
  return findLossyJson(value) === undefined;
}
