import { describe, expect, it } from 'vitest';
import { runnableModelSpec } from './runnable-model-spec.js';

describe('runnableModelSpec', () => {
  it("records Anthropic's and OpenAI's names as the adapter's spec, others as they came", () => {
    expect(
      ['claude-opus-4-5-20251101', 'gpt-5.4', 'o3', 'codex-mini', 'gemini-2.5-pro', 'anthropic:claude-x'].map(runnableModelSpec),
    ).toEqual([
      'anthropic:claude-opus-4-5-20251101',
      'openai:gpt-5.4',
      'openai:o3',
      'openai:codex-mini',
      'gemini-2.5-pro',
      'anthropic:claude-x',
    ]);
  });
});
