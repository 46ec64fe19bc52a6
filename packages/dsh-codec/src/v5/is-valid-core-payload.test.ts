import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { CoreEventType } from 'dsh-codec';
import { mutatedPayloads, payloadSamples } from '../__fixtures__/mutated-payloads.js';
// The fast path and the frozen schemas are internal; tested directly because the public API cannot tell them apart.
import { isValidCorePayload } from './is-valid-core-payload.js';
import { coreEventDataSchemas } from './schemas.js';

/** Every core payload of the V3, V4 and V5 golden fixtures: all core types, closers and reasoning blocks included. */
const samples = payloadSamples(['v3-session.jsonl', 'v4-nested-fork.jsonl', 'v5-reasoning.jsonl']);
const mutated = mutatedPayloads(samples);

describe('the V5 payload fast path', () => {
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
