/**
 * @module between-turns-queue
 * The operations an agent runs between turns (`betweenTurns`, and through it `compact` and
 * `configure`): each runs alone with an abort signal, in the order queued, and settles the promise
 * its caller holds; the ones left when the agent fails are rejected.
 */
import { defer } from './deferred.js';

type Operation = { run: (controller: AbortController) => Promise<void>; fail: (error: unknown) => void };

/** A FIFO of between-turns operations, each bound to the promise its caller was given. */
export class BetweenTurnsQueue {
  readonly #operations: Operation[] = [];

  /** The number of operations waiting to run. */
  get size(): number {
    return this.#operations.length;
  }

  /** Queues `operation`; the promise settles with its value or its error once it has run. */
  add<T>(operation: (signal: AbortSignal) => T | Promise<T>): Promise<T> {
    const deferred = defer<T>();
    this.#operations.push({
      run: async (controller) => {
        try {
          deferred.resolve(await operation(controller.signal));
        } catch (error) {
          deferred.reject(error);
        }
      },
      fail: deferred.reject,
    });
    return deferred.promise;
  }

  /**
   * Runs the oldest operation with a fresh controller (handed to `onStart` first, so `cancel()`
   * can abort it; `onEnd` runs after it settled). False when none is queued.
   */
  async runNext(onStart: (controller: AbortController) => void, onEnd: () => void): Promise<boolean> {
    const operation = this.#operations.shift();
    if (operation === undefined) return false;
    const controller = new AbortController();
    onStart(controller);
    try {
      await operation.run(controller);
    } finally {
      onEnd();
    }
    return true;
  }

  /** Rejects every queued operation with `error()` and empties the queue. */
  failAll(error: () => Error): void {
    for (const operation of this.#operations.splice(0)) operation.fail(error());
  }
}
