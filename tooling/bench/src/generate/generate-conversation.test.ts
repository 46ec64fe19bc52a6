import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { exactStepShape, generateConversation } from './generate-conversation.js';

const records = (shape: readonly number[]): number => shape.reduce((sum, calls) => sum + 3 + 2 * calls, 0);

describe('exactStepShape', () => {
  it('fills any record count of 3 or more except 4, exactly, with at most 3 calls per step but the last', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 400 }).filter((n) => n !== 4),
        (n) => {
          const shape = exactStepShape(n);
          expect(records(shape)).toBe(n);
          expect(shape.slice(0, -1).every((calls) => calls <= 3)).toBe(true);
        },
      ),
    );
  });

  it('refuses counts no steps can fill', () => {
    expect(() => exactStepShape(4)).toThrow(/cannot fill 4/);
    expect(() => exactStepShape(2)).toThrow(/cannot fill 2/);
  });
});

describe('generateConversation', () => {
  it('spends exactly its budget under any per-turn overhead', () => {
    fc.assert(
      fc.property(fc.integer({ min: 20, max: 3_000 }), fc.integer({ min: 3, max: 5 }), fc.integer(), (budget, turnOverhead, seed) => {
        const { turns } = generateConversation({ seed, budget, turnOverhead });
        expect(turns.reduce((sum, turn) => sum + turnOverhead + records(turn.steps.map((step) => step.calls.length)), 0)).toBe(budget);
      }),
      { numRuns: 25 },
    );
  });
});
