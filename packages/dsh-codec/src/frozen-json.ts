/**
 * @module frozen-json
 * `FrozenJson`: a lossless-JSON value checked, copied and frozen once, carrying that proof inside
 * itself, so `Session.append` keeps it as it is instead of walking and copying it a second time
 * (a caller that must check its data before appending — a whole batch, say — pays for one copy).
 */
import { copyLosslessJson } from './is-lossless-json.js';
import type { JsonValue } from './types.js';

/** Marks a `FrozenJson` of any installed copy of dsh-codec (only this copy's private field is trusted). */
const FROZEN_JSON: unique symbol = Symbol.for('dsh-codec.frozen-json') as never;

/**
 * A frozen copy of lossless JSON (SPEC §3.1) made by `FrozenJson.copy`; nothing else can make one.
 * `Session.append(type, frozen)` keeps `frozen.value` without copying it again.
 */
export class FrozenJson<T extends JsonValue = JsonValue> {
  readonly #value: T;

  private constructor(value: T) {
    this.#value = value;
  }

  /**
   * A `FrozenJson` of a fresh frozen copy of `value` when it is lossless JSON (`isLosslessJson`),
   * else undefined. Reads `value` once; a getter or proxy trap that throws propagates.
   */
  static copy<T extends JsonValue = JsonValue>(value: unknown): FrozenJson<T> | undefined {
    const copy = copyLosslessJson(value);
    return copy === undefined ? undefined : new FrozenJson(copy as T);
  }

  /** The frozen copy (fresh plain objects and arrays, deeply frozen). */
  get value(): T {
    return this.#value;
  }

  /** @internal Recognised across installed copies of dsh-codec (see `ownedJson`). */
  get [FROZEN_JSON](): true {
    return true;
  }

  /** Whether `value` was made by this copy of dsh-codec's `FrozenJson.copy` (its private field proves it). */
  static is(value: unknown): value is FrozenJson {
    return typeof value === 'object' && value !== null && #value in value;
  }
}

/**
 * What an append keeps of `data`: a `FrozenJson`'s value as it is; the value of another installed
 * copy's `FrozenJson` copied and checked again (its proof cannot be trusted here); any other value's
 * frozen lossless copy. Undefined when the data is not lossless JSON.
 */
export function ownedJson(data: unknown): JsonValue | undefined {
  if (FrozenJson.is(data)) return data.value;
  if (isForeignFrozenJson(data)) return copyLosslessJson(data.value);
  return copyLosslessJson(data);
}

/** An instance of another installed copy's `FrozenJson` (a class instance: never plain JSON itself). */
function isForeignFrozenJson(data: unknown): data is { value: unknown } {
  if (typeof data !== 'object' || data === null) return false;
  const proto: unknown = Object.getPrototypeOf(data);
  return proto !== null && proto !== Object.prototype && proto !== Array.prototype && FROZEN_JSON in data;
}
