import { describe, expect, it } from 'vitest';
import { costUsd, priceOf } from './model-prices.js';

const million = { input_tokens: 1_000_000, output_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: 0 };

describe('the price table', () => {
  it('prices every Opus from 4.5 on at the new rate and Opus 4 / 4.1 at the old one (the longest prefix wins)', () => {
    for (const model of ['claude-opus-4-5-20251101', 'claude-opus-4-6', 'claude-opus-4-7', 'claude-opus-4-8', 'claude-opus-5']) {
      expect(priceOf(`anthropic:${model}`)?.input, model).toBe(5);
    }
    for (const model of ['claude-opus-4-20250514', 'claude-opus-4-1-20250805'])
      expect(priceOf(`anthropic:${model}`)?.input, model).toBe(15);
  });

  it("costs 0 for a model it does not list, never a neighbour's price", () => {
    expect(costUsd('anthropic:claude-sonnet-5', million)).toBe(0);
    expect(costUsd('openai:gpt-5.4', million)).toBe(0);
    expect(costUsd('keyless', million)).toBe(0);
  });

  it('prices OpenAI cached tokens once, at the cached rate, out of prompt_tokens', () => {
    expect(costUsd('openai:gpt-4.1', { ...million, cache_read_input_tokens: 500_000 })).toBeCloseTo(0.5 * 2 + 0.5 * 0.5, 9);
  });
});
