/**
 * @module idle-waiters
 * The callers of `Agent.idle()` waiting for the loop to stop: released together when it does,
 * with the latest turn's result, or rejected with the failure that stopped it.
 */
import { defer, type Deferred } from './deferred.js';
import type { TurnResult } from './run-turn.js';

/** The promises handed out by `idle()` while the loop runs. */
export class IdleWaiters {
  #waiters: Deferred<TurnResult | undefined>[] = [];

  /** A promise settled by the next `release`. */
  wait(): Promise<TurnResult | undefined> {
    const waiter = defer<TurnResult | undefined>();
    this.#waiters.push(waiter);
    return waiter.promise;
  }

  /** Settles every waiter so far: rejected with `failure` when there is one, else resolved with `lastResult`. */
  release(failure: Error | undefined, lastResult: TurnResult | undefined): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const waiter of waiters) {
      if (failure === undefined) waiter.resolve(lastResult);
      else waiter.reject(failure);
    }
  }
}
