/**
 * @module model-prices
 * The price table behind `total_cost_usd` (USD per million tokens, as the providers list them; the
 * same table is in docs/cli.md). A model not in it — keyless, scripted, an unknown name — costs 0.
 */

/** Prices of one model family in USD per million tokens. */
export type ModelPrice = { input: number; output: number; cacheRead: number; cacheWrite: number };

/**
 * Model name prefixes (after `anthropic:` / `openai:`) and their prices; the longest matching prefix wins.
 * Checked 2026-12-02 (docs/cli.md names the source and status of each row).
 */
export const MODEL_PRICES: Readonly<Record<string, ModelPrice>> = {
  // Opus 4.5 and later cost a third of Opus 4 / 4.1; each later Opus 4.x needs its own row, or the
  // `claude-opus-4` prefix would price it at the old rate.
  'anthropic:claude-opus-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic:claude-opus-4-8': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic:claude-opus-4-7': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic:claude-opus-4-6': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic:claude-opus-4-5': { input: 5, output: 25, cacheRead: 0.5, cacheWrite: 6.25 },
  'anthropic:claude-opus-4': { input: 15, output: 75, cacheRead: 1.5, cacheWrite: 18.75 },
  'anthropic:claude-sonnet-4': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic:claude-3-7-sonnet': { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
  'anthropic:claude-haiku-4-5': { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
  'anthropic:claude-3-5-haiku': { input: 0.8, output: 4, cacheRead: 0.08, cacheWrite: 1 },
  'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075, cacheWrite: 0 },
  'openai:gpt-4o': { input: 2.5, output: 10, cacheRead: 1.25, cacheWrite: 0 },
  'openai:gpt-4.1-nano': { input: 0.1, output: 0.4, cacheRead: 0.025, cacheWrite: 0 },
  'openai:gpt-4.1-mini': { input: 0.4, output: 1.6, cacheRead: 0.1, cacheWrite: 0 },
  'openai:gpt-4.1': { input: 2, output: 8, cacheRead: 0.5, cacheWrite: 0 },
  'openai:deepseek-chat': { input: 0.27, output: 1.1, cacheRead: 0.07, cacheWrite: 0 },
  'openai:deepseek-reasoner': { input: 0.55, output: 2.19, cacheRead: 0.14, cacheWrite: 0 },
};

/** Token counts of a turn, as the result object's `usage` carries them. */
export type TokenCounts = {
  input_tokens: number;
  output_tokens: number;
  cache_read_input_tokens: number;
  cache_creation_input_tokens: number;
};

/** The price of a model spec: the longest table prefix it starts with, if any. */
export function priceOf(model: string): ModelPrice | undefined {
  let best: string | undefined;
  for (const prefix of Object.keys(MODEL_PRICES)) {
    if (model.startsWith(prefix) && (best === undefined || prefix.length > best.length)) best = prefix;
  }
  return best === undefined ? undefined : MODEL_PRICES[best];
}

/** USD for these tokens on `model`; 0 for a model the table does not know. */
export function costUsd(model: string, usage: TokenCounts): number {
  const price = priceOf(model);
  if (price === undefined) return 0;
  // OpenAI-compatible endpoints count cached tokens inside prompt_tokens; Anthropic counts them apart.
  const uncached = model.startsWith('openai:') ? Math.max(0, usage.input_tokens - usage.cache_read_input_tokens) : usage.input_tokens;
  const micro =
    uncached * price.input +
    usage.output_tokens * price.output +
    usage.cache_read_input_tokens * price.cacheRead +
    usage.cache_creation_input_tokens * price.cacheWrite;
  return micro / 1_000_000;
}
