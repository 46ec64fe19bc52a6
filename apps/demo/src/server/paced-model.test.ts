import { expect, test } from 'vitest';
import type { Model } from 'dsh-host';
import { pacedModel } from './paced-model.js';

function countingModel(): Model & { calls: number } {
  const model = {
    name: 'counting',
    calls: 0,
    complete() {
      model.calls += 1;
      return Promise.resolve({ text: 'ok', toolCalls: [] });
    },
  };
  return model;
}

test('a pace of 0 returns the model itself', () => {
  const model = countingModel();
  expect(pacedModel(model, 0)).toBe(model);
});

test('a paced model answers with the wrapped model after the pause', async () => {
  const model = countingModel();
  const paced = pacedModel(model, 5);
  await expect(paced.complete({ messages: [], tools: [] })).resolves.toEqual({ text: 'ok', toolCalls: [] });
  expect(model.calls).toBe(1);
  expect(paced.name).toBe('counting');
});

test('cancelling during the pause rejects without calling the model', async () => {
  const model = countingModel();
  const controller = new AbortController();
  const answer = pacedModel(model, 60_000).complete({ messages: [], tools: [], signal: controller.signal });
  controller.abort(new Error('cancelled'));
  await expect(answer).rejects.toThrow('cancelled');
  expect(model.calls).toBe(0);
});
