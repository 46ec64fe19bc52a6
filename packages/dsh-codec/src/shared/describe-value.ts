/**
 * Renders a received value for an error message: short, one line, never throws.
 * Version-free (every validator words its messages with it; pinned by `validator-outputs.test.ts`).
 */

const MAX = 60;

/** A short, safe description of `value` for "expected X, got Y" messages. */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return truncate(JSON.stringify(value));
  if (typeof value === 'boolean') return String(value);
  if (typeof value === 'bigint') return `${String(value)}n (a bigint)`;
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'symbol') return 'a symbol';
  if (Array.isArray(value)) return `an array of ${String(value.length)}`;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (proto as { constructor?: { name?: unknown } }).constructor?.name;
    return typeof name === 'string' && name !== '' ? `a ${name} instance` : 'a non-plain object';
  }
  const keys = Object.keys(value);
  return truncate(`an object {${keys.join(', ')}}`);
}

function truncate(text: string): string {
  return text.length <= MAX ? text : `${text.slice(0, MAX - 1)}…`;
}
