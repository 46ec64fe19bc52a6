/**
 * Slows a model down so a person (or a browser test) can watch a turn unfold over SSE and act while
 * it runs: a fixed pause before each call, and its streamed deltas spaced out (a quarter of the
 * pace apart, at most 250 ms), the response returned only after the last one. Every pause ends early
 * when the turn is cancelled, and the call then rejects with the abort reason.
 */
import type { Model } from 'dsh-host';

/** Waits `ms`, or less if `signal` aborts first (the caller checks `signal.aborted`). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted === true) {
      resolve();
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      resolve();
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw signal.reason as Error;
}

/** Wraps `model`; with `paceMs` 0 it is returned unchanged. */
export function pacedModel(model: Model, paceMs: number): Model {
  if (paceMs <= 0) return model;
  const gapMs = Math.min(250, Math.ceil(paceMs / 4));
  return {
    name: model.name,
    async complete(request) {
      const { signal, onDelta } = request;
      throwIfAborted(signal);
      await pause(paceMs, signal);
      throwIfAborted(signal);
      // Each delta goes out `gapMs` after the previous one, however fast the model produced it.
      let spaced = Promise.resolve();
      const response = await model.complete({
        ...request,
        ...(onDelta === undefined
          ? {}
          : {
              onDelta: (delta) => {
                spaced = spaced.then(async () => {
                  await pause(gapMs, signal);
                  if (signal?.aborted !== true) onDelta(delta);
                });
              },
            }),
      });
      await spaced;
      throwIfAborted(signal);
      return response;
    },
  };
}
