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

function streamingModel(pieces: string[]): Model {
  return {
    name: 'streaming',
    complete(request) {
      for (const text of pieces) request.onDelta?.({ text });
      return Promise.resolve({ text: pieces.join(''), toolCalls: [] });
    },
  };
}

test('deltas produced at once are passed on one by one, apart in time, before the response', async () => {
  const seen: { text: string; at: number }[] = [];
  const start = Date.now();
  const answer = await pacedModel(streamingModel(['a ', 'b ', 'c']), 40).complete({
    messages: [],
    tools: [],
    onDelta: (delta) => seen.push({ text: delta.text ?? '', at: Date.now() - start }),
  });
  const answeredAt = Date.now() - start;
  expect(answer.text).toBe('a b c');
  expect(seen.map((delta) => delta.text)).toEqual(['a ', 'b ', 'c']);
  // The pause (40 ms), then a 10 ms gap before each delta: strictly later than the one before.
  expect(seen[0]?.at).toBeGreaterThanOrEqual(40);
  expect(seen[1]!.at).toBeGreaterThan(seen[0]!.at);
  expect(seen[2]!.at).toBeGreaterThan(seen[1]!.at);
  expect(answeredAt).toBeGreaterThanOrEqual(seen[2]!.at);
});

test('cancelling while deltas are spaced out rejects and passes no further delta on', async () => {
  const controller = new AbortController();
  const seen: string[] = [];
  const answer = pacedModel(streamingModel(['a ', 'b ', 'c']), 1000).complete({
    messages: [],
    tools: [],
    signal: controller.signal,
    onDelta: (delta) => {
      seen.push(delta.text ?? '');
      controller.abort(new Error('cancelled'));
    },
  });
  await expect(answer).rejects.toThrow('cancelled');
  expect(seen).toEqual(['a ']);
});
