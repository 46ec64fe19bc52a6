import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mutatedPayloads, payloadSamples } from '../__fixtures__/mutated-payloads.js';
// The fast path and the frozen schemas are internal; tested directly because the public API cannot tell them apart.
import { isValidV0Payload } from './is-valid-v0-payload.js';
import { v0DataSchemas } from './schemas.js';

/** Every payload of the V0 golden fixture (its first line is an event too; the sampler skips it). */
const samples = payloadSamples(['v0-session.jsonl']);
const mutated = mutatedPayloads(samples);
const accepts = (type: string, data: unknown): boolean => v0DataSchemas[type as keyof typeof v0DataSchemas].safeParse(data).success;

describe('the V0 payload fast path', () => {
  it('accepts every valid payload of the fixture, for every V0 type (so the fast path is really taken)', () => {
    expect(new Set(samples.map((sample) => sample.type))).toEqual(new Set(Object.keys(v0DataSchemas)));
    for (const { type, data } of samples) {
      expect(accepts(type, data), type).toBe(true);
      expect(isValidV0Payload(type, data), type).toBe(true);
    }
  });

  it('agrees with the frozen zod schemas on mutated payloads, both ways', () => {
    fc.assert(
      fc.property(mutated, ({ type, data }) => {
        expect(isValidV0Payload(type, data)).toBe(accepts(type, data));
      }),
      { numRuns: 3000, seed: 42 },
    );
  });

  it('never accepts what zod rejects (arbitrary JSON under every type)', () => {
    fc.assert(
      fc.property(fc.constantFrom(...Object.keys(v0DataSchemas)), fc.jsonValue({ maxDepth: 3 }), (type, data) => {
        if (isValidV0Payload(type, data)) expect(accepts(type, data)).toBe(true);
      }),
      { numRuns: 2000, seed: 7 },
    );
  });

  it('leaves unknown types to the schemas (false)', () => {
    expect(isValidV0Payload('session/title', { title: 'x' })).toBe(false);
    expect(isValidV0Payload('constructor', {})).toBe(false);
  });
});
