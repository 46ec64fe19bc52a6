/**
 * Slows a model down by a fixed pause before each call, so a person (or a browser test) can watch
 * a turn unfold over SSE and act while it runs. The pause ends early when the turn is cancelled.
 */
import type { Model } from 'dsh-host';

/** Wraps `model`; with `paceMs` 0 it is returned unchanged. */
export function pacedModel(model: Model, paceMs: number): Model {
  if (paceMs <= 0) return model;
  return {
    name: model.name,
    async complete(request) {
      await new Promise<void>((resolve, reject) => {
        const signal = request.signal;
        if (signal?.aborted === true) {
          reject(signal.reason as Error);
          return;
        }
        const timer = setTimeout(() => {
          signal?.removeEventListener('abort', onAbort);
          resolve();
        }, paceMs);
        const onAbort = () => {
          clearTimeout(timer);
          reject(signal?.reason as Error);
        };
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      return model.complete(request);
    },
  };
}
