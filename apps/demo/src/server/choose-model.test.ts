import { expect, test } from 'vitest';
import { chooseModel } from './choose-model.js';

test('without a key the demo runs the keyless model', () => {
  expect(chooseModel(undefined, {}).spec).toBe('keyless');
  expect(chooseModel(undefined, { OPENAI_API_KEY: '' }).spec).toBe('keyless');
});

test('OPENAI_API_KEY selects an OpenAI-compatible model, named by OPENAI_MODEL when set', () => {
  expect(chooseModel(undefined, { OPENAI_API_KEY: 'k' }).spec).toBe('openai:gpt-4o-mini');
  expect(chooseModel(undefined, { OPENAI_API_KEY: 'k', OPENAI_MODEL: 'local-llama' }).spec).toBe('openai:local-llama');
});

test('an explicit --model wins over the environment', () => {
  expect(chooseModel('keyless', { OPENAI_API_KEY: 'k' })).toEqual({ spec: 'keyless', reason: '--model' });
});
