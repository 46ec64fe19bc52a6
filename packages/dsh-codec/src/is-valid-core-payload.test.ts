import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CoreEventType } from 'dsh-codec';
import { mutatedPayloads, payloadSamples } from './__fixtures__/mutated-payloads.js';
// The fast paths and the frozen schemas are internal; tested directly because the public API cannot tell them apart.
import { isValidCorePayload as isValidV4CorePayload } from './v4/is-valid-core-payload.js';
import { coreEventDataSchemas as v4CoreEventDataSchemas } from './v4/schemas.js';
import { isValidCorePayload as isValidV5CorePayload } from './v5/is-valid-core-payload.js';
import { coreEventDataSchemas as v5CoreEventDataSchemas } from './v5/schemas.js';
import { isValidCorePayload as isValidV6CorePayload } from './v6/is-valid-core-payload.js';
import { coreEventDataSchemas as v6CoreEventDataSchemas } from './v6/schemas.js';

/** A version's schema table: its own core types only (V4 and V5 have no `session/note`). */
type Schemas = Partial<Record<CoreEventType, { safeParse(data: unknown): { success: boolean } }>>;
/** A version's fast path, asked only about that version's own types. */
type FastPath = (type: never, data: unknown) => boolean;

/** Each version with a core-payload fast path, its zod schemas and the golden fixtures whose payloads it must accept. */
const VERSIONS: readonly {
  version: number;
  fixtures: string[];
  isValidCorePayload: FastPath;
  schemas: Schemas;
}[] = [
  {
    version: 4,
    // All core types, closers included.
    fixtures: ['v3-session.jsonl', 'v4-nested-fork.jsonl'],
    isValidCorePayload: isValidV4CorePayload,
    schemas: v4CoreEventDataSchemas,
  },
  {
    version: 5,
    // All core types, closers and reasoning blocks included.
    fixtures: ['v3-session.jsonl', 'v4-nested-fork.jsonl', 'v5-reasoning.jsonl'],
    isValidCorePayload: isValidV5CorePayload,
    schemas: v5CoreEventDataSchemas,
  },
  {
    version: 6,
    // All core types, closers with the workspace sentence and both kinds of session/note included.
    fixtures: ['v3-session.jsonl', 'v4-nested-fork.jsonl', 'v5-reasoning.jsonl', 'v6-workspace.jsonl'],
    isValidCorePayload: isValidV6CorePayload,
    schemas: v6CoreEventDataSchemas,
  },
];

describe.each(VERSIONS)('the V$version payload fast path', ({ fixtures, isValidCorePayload: fastPath, schemas: table }) => {
  const isValidCorePayload = fastPath as (type: CoreEventType, data: unknown) => boolean;
  const schemas = table as Record<CoreEventType, { safeParse(data: unknown): { success: boolean } }>;
  // Every core payload of the version's golden fixtures.
  const samples = payloadSamples(fixtures);
  const mutated = mutatedPayloads(samples);

  it('accepts every valid payload of the fixtures (so the fast path is really taken)', () => {
    expect(new Set(samples.map((sample) => sample.type)).size).toBe(Object.keys(schemas).length);
    for (const { type, data } of samples) {
      expect(schemas[type].safeParse(data).success, type).toBe(true);
      expect(isValidCorePayload(type, data), type).toBe(true);
    }
  });

  it('never accepts a payload the zod schema rejects (mutated valid payloads)', () => {
    fc.assert(
      fc.property(mutated, ({ type, data }) => {
        if (isValidCorePayload(type, data)) expect(schemas[type].safeParse(data).success).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('never accepts a payload the zod schema rejects (arbitrary JSON)', () => {
    const types = Object.keys(schemas) as CoreEventType[];
    fc.assert(
      fc.property(fc.constantFrom(...types), fc.jsonValue({ maxDepth: 3 }), (type, data) => {
        if (isValidCorePayload(type, data)) expect(schemas[type].safeParse(data).success).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });

  it('agrees with zod on mutated payloads both ways (no needless fallback to the slow path)', () => {
    fc.assert(
      fc.property(mutated, ({ type, data }) => {
        expect(isValidCorePayload(type, data)).toBe(schemas[type].safeParse(data).success);
      }),
      { numRuns: 2000 },
    );
  });
});
