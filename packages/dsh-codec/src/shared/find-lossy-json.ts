/**
 * The lossless JSON rule (SPEC §3.1), the same in every version since V0: a value survives `JSON.stringify` →
 * `JSON.parse` unchanged. Iterative, so hostile nesting cannot overflow the stack here, and
 * nesting is capped so that `JSON.stringify` cannot overflow it either.
 */

/** Where a value stops being lossless JSON, and why. */
export type LossyJson = { path: (string | number)[]; reason: string };

const CONTAINER = 1;

/**
 * Containers nested deeper than this are refused: `JSON.stringify` recurses and would overflow
 * the stack on them (at a few thousand levels), so they cannot be written back losslessly.
 */
export const MAX_JSON_DEPTH = 512;

/**
 * Whether a value produced by `JSON.parse` is lossless, `depth` being its own nesting level (1 for an
 * event's data). Such a value is plain by construction (no holes, cycles, symbols, hidden keys or
 * prototypes), so only a `-0`, an overflowing number (±Infinity) or too deep nesting can make it
 * lossy: the same verdict as `findLossyJson` for that value, without building anything.
 */
export function parsedJsonIsLossless(value: unknown, depth: number): boolean {
  if (typeof value === 'number') return Number.isFinite(value) && (value !== 0 || 1 / value > 0);
  if (typeof value !== 'object' || value === null) return true;
  if (depth > MAX_JSON_DEPTH) return false;
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) {
      if (typeof item === 'object' || typeof item === 'number') {
        if (!parsedJsonIsLossless(item, depth + 1)) return false;
      }
    }
    return true;
  }
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (typeof item === 'object' || typeof item === 'number') {
      if (!parsedJsonIsLossless(item, depth + 1)) return false;
    }
  }
  return true;
}

/** Returns `undefined` for a leaf that is lossless, `CONTAINER` for an object/array, else the reason. */
function classify(value: unknown): string | typeof CONTAINER | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      if (Number.isNaN(value)) return 'NaN is not JSON';
      if (!Number.isFinite(value)) return `${String(value)} is not JSON`;
      return Object.is(value, -0) ? '-0 does not survive JSON (it reads back as 0)' : undefined;
    case 'object':
      return value === null ? undefined : CONTAINER;
    case 'undefined':
      return 'undefined is not JSON';
    case 'bigint':
      return 'a bigint is not JSON';
    case 'function':
      return 'a function is not JSON';
    default:
      return 'a symbol is not JSON';
  }
}

type Frame = {
  value: object;
  /** Own keys of an object, `undefined` for an array. */
  keys: string[] | undefined;
  length: number;
  next: number;
  key: string | number;
};

/** Checks a container itself (prototype, holes, hidden keys); returns the reason it is lossy. */
function containerProblem(value: object): { reason: string; keys?: string[] } {
  if (Array.isArray(value)) {
    if (Object.getPrototypeOf(value) !== Array.prototype) return { reason: 'a non-plain array is not JSON' };
    for (let i = 0; i < value.length; i++) {
      if (!(i in value)) return { reason: `a sparse array (hole at ${String(i)}) is not JSON` };
    }
    if (Object.keys(value).length !== value.length) return { reason: 'an array with named properties is not JSON' };
    return { reason: '' };
  }
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (proto as { constructor?: { name?: unknown } } | null)?.constructor?.name;
    return { reason: `a non-plain object${typeof name === 'string' && name !== '' ? ` (${name})` : ''} is not JSON` };
  }
  const keys = Object.keys(value);
  if (Object.getOwnPropertySymbols(value).length > 0) return { reason: 'an object with symbol keys is not JSON' };
  if (Object.getOwnPropertyNames(value).length !== keys.length) {
    return { reason: 'an object with non-enumerable properties is not JSON' };
  }
  return { reason: '', keys };
}

function pathOf(stack: readonly Frame[], key?: string | number): (string | number)[] {
  const path: (string | number)[] = [];
  for (let i = 1; i < stack.length; i++) path.push((stack[i] as Frame).key);
  if (key !== undefined) path.push(key);
  return path;
}

/** The first place where `root` is not lossless JSON, or `undefined` when it all is. Never throws. */
export function findLossyJson(root: unknown): LossyJson | undefined {
  const rootKind = classify(root);
  if (rootKind === undefined) return undefined;
  if (rootKind !== CONTAINER) return { path: [], reason: rootKind };
  const stack: Frame[] = [];
  const ancestors = new Set<object>();
  const open = (value: object, key: string | number): string | undefined => {
    const { reason, keys } = containerProblem(value);
    if (reason !== '') return reason;
    stack.push({ value, keys, length: keys === undefined ? (value as unknown[]).length : keys.length, next: 0, key });
    ancestors.add(value);
    return undefined;
  };
  const rootProblem = open(root as object, '');
  if (rootProblem !== undefined) return { path: [], reason: rootProblem };
  for (;;) {
    const frame = stack[stack.length - 1];
    if (frame === undefined) return undefined;
    if (frame.next >= frame.length) {
      stack.pop();
      ancestors.delete(frame.value);
      continue;
    }
    const index = frame.next++;
    const key: string | number = frame.keys === undefined ? index : (frame.keys[index] as string);
    const child: unknown = (frame.value as Record<string | number, unknown>)[key];
    const kind = classify(child);
    if (kind === undefined) continue;
    if (kind !== CONTAINER) return { path: pathOf(stack, key), reason: kind };
    if (ancestors.has(child as object)) return { path: pathOf(stack, key), reason: 'a cycle is not JSON' };
    if (stack.length >= MAX_JSON_DEPTH)
      return { path: pathOf(stack, key), reason: `nesting deeper than ${String(MAX_JSON_DEPTH)} levels cannot be written back` };
    const problem = open(child as object, key);
    if (problem !== undefined) return { path: pathOf(stack, key), reason: problem };
  }
}
