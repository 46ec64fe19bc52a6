import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coreEventDataSchemas, isCoreEventType, type CoreEventType } from 'dsh-codec';
// The fast path is internal; it is tested directly because the public API cannot tell it apart.
import { isValidCorePayload } from './is-valid-core-payload.js';

type Sample = { type: CoreEventType; data: unknown };

/** Every core payload of the V3 and V4 golden fixtures: all core types, closers included. */
const samples: Sample[] = ['v3-session.jsonl', 'v4-nested-fork.jsonl'].flatMap((name) =>
  readFileSync(join(import.meta.dirname, '..', '__fixtures__', name), 'utf8')
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as { type: string; data: unknown })
    .filter((event): event is Sample => isCoreEventType(event.type)),
);

type Path = (string | number)[];

function paths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const children = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return [prefix, ...children.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

/** A copy of `root` with the value at `path` replaced (or removed when `replacement` is `REMOVE`). */
const REMOVE = Symbol('remove');
function edit(root: unknown, path: Path, replacement: unknown): unknown {
  if (path.length === 0) return replacement === REMOVE ? {} : replacement;
  const [head, ...rest] = path as [string | number, ...Path];
  if (Array.isArray(root)) {
    const copy: unknown[] = [...(root as unknown[])];
    if (rest.length === 0 && replacement === REMOVE) copy.splice(head as number, 1);
    else copy[head as number] = edit(copy[head as number], rest, replacement);
    return copy;
  }
  const entries = Object.entries(root as object).filter(([key]) => !(rest.length === 0 && replacement === REMOVE && key === head));
  const copy: Record<string, unknown> = Object.fromEntries(entries);
  if (!(rest.length === 0 && replacement === REMOVE)) copy[head] = edit(copy[head], rest, replacement);
  return copy;
}

const mutated: fc.Arbitrary<Sample> = fc
  .record({
    sample: fc.constantFrom(...samples),
    pick: fc.nat(),
    action: fc.oneof(
      fc.record({ kind: fc.constant('remove' as const) }),
      fc.record({ kind: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
      fc.record({ kind: fc.constant('add' as const), key: fc.constantFrom('extra', 'kind', 'type', 'inherited', 'usage', 'error', 'inputId', 'id'), value: fc.jsonValue({ maxDepth: 1 }) }),
    ),
  })
  .map(({ sample, pick, action }) => {
    const all = paths(sample.data);
    const path = all[pick % all.length] as Path;
    if (action.kind === 'remove') return { type: sample.type, data: edit(sample.data, path, REMOVE) };
    if (action.kind === 'replace') return { type: sample.type, data: edit(sample.data, path, action.value) };
    const target = path.length === 0 ? sample.data : path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], sample.data);
    if (typeof target !== 'object' || target === null || Array.isArray(target)) return sample;
    return { type: sample.type, data: edit(sample.data, path, { ...target, [action.key]: action.value }) };
  });

describe('the V4 payload fast path', () => {
  it('accepts every valid payload of the fixtures (so the fast path is really taken)', () => {
    expect(new Set(samples.map((sample) => sample.type)).size).toBe(Object.keys(coreEventDataSchemas).length);
    for (const { type, data } of samples) {
      expect(coreEventDataSchemas[type].safeParse(data).success, type).toBe(true);
      expect(isValidCorePayload(type, data), type).toBe(true);
    }
  });

  it('never accepts a payload the zod schema rejects (mutated valid payloads)', () => {
    fc.assert(
      fc.property(mutated, ({ type, data }) => {
        if (isValidCorePayload(type, data)) expect(coreEventDataSchemas[type].safeParse(data).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never accepts a payload the zod schema rejects (arbitrary JSON)', () => {
    const types = Object.keys(coreEventDataSchemas) as CoreEventType[];
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.jsonValue({ maxDepth: 3 }), (type, data) => {
        if (isValidCorePayload(type, data)) expect(coreEventDataSchemas[type].safeParse(data).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with zod on mutated payloads both ways (no needless fallback to the slow path)', () => {
    fc.assert(
      fc.property(mutated, ({ type, data }) => {
        expect(isValidCorePayload(type, data)).toBe(coreEventDataSchemas[type].safeParse(data).success);
      }),
      { numRuns: 2000 },
    );
  });
});
