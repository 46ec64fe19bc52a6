import { describe, expect, it } from 'vitest';
import { canonicalModelSpec, defaultModelSpec } from './model-aliases.js';
import { resolveModel } from './resolve-model.js';

describe('model aliases (SPEC §25)', () => {
  it("maps Claude Code's names to anthropic:… and a bare gpt-… to openai:…; other specs unchanged", () => {
    expect(['sonnet', 'opus', 'haiku', 'claude-opus-4-5-20251101', 'gpt-5', 'keyless', 'toString'].map(canonicalModelSpec)).toEqual([
      'anthropic:claude-sonnet-4-5',
      'anthropic:claude-opus-4-5',
      'anthropic:claude-haiku-4-5',
      'anthropic:claude-opus-4-5-20251101',
      'openai:gpt-5',
      'keyless',
      'toString',
    ]);
  });

  it('the default spec follows the keys: Anthropic first, then OpenAI, else keyless (empty keys ignored)', () => {
    expect(defaultModelSpec({ ANTHROPIC_API_KEY: 'a', OPENAI_API_KEY: 'o' })).toBe('anthropic:claude-sonnet-4-5');
    expect(defaultModelSpec({ ANTHROPIC_API_KEY: '', OPENAI_API_KEY: 'o' })).toBe('openai:gpt-4.1');
    expect(defaultModelSpec({})).toBe('keyless');
  });

  it('resolveModel runs an alias as the adapter it names', async () => {
    const model = await resolveModel('claude-opus-4-5-20251101', { env: { ANTHROPIC_API_KEY: 'k' } });
    expect(model.name).toBe('anthropic:claude-opus-4-5-20251101');
  });
});
