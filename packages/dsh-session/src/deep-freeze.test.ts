import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deepFreeze } from './deep-freeze.js';

/** Every object and array inside `value`, itself included. */
function nodes(value: unknown, found: object[] = []): object[] {
  if (typeof value !== 'object' || value === null) return found;
  found.push(value);
  for (const child of Object.values(value)) nodes(child, found);
  return found;
}

describe('deepFreeze', () => {
  it('freezes every object and array of any JSON tree, in place, and returns it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const tree: unknown = JSON.parse(JSON.stringify(value));
        expect(deepFreeze(tree)).toBe(tree);
        expect(nodes(tree).every((node) => Object.isFrozen(node))).toBe(true);
      }),
    );
  });

  it('freezes objects without a prototype and keys that look like array indexes', () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { '0': { a: [1, { b: 2 }] } });
    deepFreeze(bare);
    expect(nodes(bare).every((node) => Object.isFrozen(node))).toBe(true);
  });

  it('stops at a subtree that is already frozen (frozen by this package means frozen throughout)', () => {
    const inner = { unfrozen: {} };
    const shared = Object.freeze({ inner });
    deepFreeze({ shared });
    expect(Object.isFrozen(inner)).toBe(false);
  });
});
