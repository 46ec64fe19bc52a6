/**
 * Samples and mutations of core payloads for the fast-path property tests: every core payload of
 * some golden fixtures, and copies with one value removed, replaced or added.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { isCoreEventType, type CoreEventType } from 'dsh-codec';

export type Sample = { type: CoreEventType; data: unknown };

/** Every core payload of the named golden fixtures (header lines skipped). */
export function payloadSamples(names: readonly string[]): Sample[] {
  return names.flatMap((name) =>
    readFileSync(join(import.meta.dirname, name), 'utf8')
      .trimEnd()
      .split('\n')
      .slice(1)
      .map((line) => JSON.parse(line) as { type: string; data: unknown })
      .filter((event): event is Sample => isCoreEventType(event.type)),
  );
}

type Path = (string | number)[];

/** Every path into `value` (itself first), depth first. */
export function paths(value: unknown, prefix: Path = []): Path[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  const children = Array.isArray(value) ? value.map((_, index) => index) : Object.keys(value);
  return [prefix, ...children.flatMap((key) => paths((value as Record<string | number, unknown>)[key], [...prefix, key]))];
}

/** Passed to `edit` as the replacement: remove the value instead. */
export const REMOVE = Symbol('remove');

/** A copy of `root` with the value at `path` replaced (or removed when `replacement` is `REMOVE`). */
export function edit(root: unknown, path: Path, replacement: unknown): unknown {
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

/** Samples with one value removed, replaced or added somewhere in their payload. */
export function mutatedPayloads(samples: readonly Sample[]): fc.Arbitrary<Sample> {
  return fc
    .record({
      sample: fc.constantFrom(...samples),
      pick: fc.nat(),
      action: fc.oneof(
        fc.record({ kind: fc.constant('remove' as const) }),
        fc.record({ kind: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 2 }) }),
        fc.record({
          kind: fc.constant('add' as const),
          key: fc.constant('type'),
          value: fc.constantFrom<unknown>('text', 'tool-call', 'reasoning'),
        }),
        fc.record({
          kind: fc.constant('add' as const),
          key: fc.constantFrom('extra', 'kind', 'type', 'inherited', 'usage', 'error', 'inputId', 'id', 'providerData', 'text'),
          value: fc.jsonValue({ maxDepth: 1 }),
        }),
      ),
    })
    .map(({ sample, pick, action }) => {
      const all = paths(sample.data);
      const path = all[pick % all.length] as Path;
      if (action.kind === 'remove') return { type: sample.type, data: edit(sample.data, path, REMOVE) };
      if (action.kind === 'replace') return { type: sample.type, data: edit(sample.data, path, action.value) };
      const target =
        path.length === 0
          ? sample.data
          : path.reduce<unknown>((value, key) => (value as Record<string | number, unknown>)[key], sample.data);
      if (typeof target !== 'object' || target === null || Array.isArray(target)) return sample;
      return { type: sample.type, data: edit(sample.data, path, { ...target, [action.key]: action.value }) };
    });
}
