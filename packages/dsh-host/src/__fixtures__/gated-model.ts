/**
 * A model whose every request waits until the test lets it answer, so a test can act (fork,
 * queue input, observe) while a turn is provably running.
 */
import type { Model, ModelRequest, ModelResponse } from 'dsh-agent';

export type GatedModel = Model & {
  /** Resolves once `count` requests (in total) are waiting or answered. */
  requested(count: number): Promise<void>;
  /** Lets the oldest waiting request answer with the next scripted response. */
  answer(): void;
  readonly requests: readonly ModelRequest[];
};

/** Responses are consumed one per request; past the end the model answers "done" without tools. */
export function createGatedModel(responses: readonly Partial<ModelResponse>[]): GatedModel {
  const requests: ModelRequest[] = [];
  const gates: (() => void)[] = [];
  const watchers: { count: number; resolve: () => void }[] = [];
  let answered = 0;
  return {
    name: 'gated',
    requests,
    requested(count) {
      if (requests.length >= count) return Promise.resolve();
      return new Promise((resolve) => watchers.push({ count, resolve }));
    },
    answer() {
      const gate = gates.shift();
      if (gate === undefined) throw new Error('gated model: no request is waiting');
      gate();
    },
    async complete(request) {
      requests.push(request);
      for (const watcher of watchers.filter((item) => requests.length >= item.count)) {
        watchers.splice(watchers.indexOf(watcher), 1);
        watcher.resolve();
      }
      await new Promise<void>((resolve, reject) => {
        gates.push(resolve);
        request.signal?.addEventListener('abort', () => {
          reject(new Error('aborted'));
        });
      });
      const response = responses[answered++] ?? {};
      return {
        text: response.text ?? 'done',
        toolCalls: response.toolCalls ?? [],
        ...(response.usage === undefined ? {} : { usage: response.usage }),
      };
    },
  };
}
