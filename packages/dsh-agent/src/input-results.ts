/**
 * @module input-results
 * The results an agent hands out per input id: a `Deferred<TurnResult>` made when the input is
 * asked about or claimed, settled by the turn that claims it, rejected together when the agent
 * closes or fails.
 */
import { defer, type Deferred } from './deferred.js';
import type { PendingInput } from './log-state.js';
import type { TurnResult } from './run-turn.js';

/** The turn results of the inputs an agent was asked about or has claimed, by input id. */
export class InputResults {
  readonly #results = new Map<string, Deferred<TurnResult>>();

  /** The promise already handed out for `inputId`, if any. */
  known(inputId: string): Promise<TurnResult> | undefined {
    return this.#results.get(inputId)?.promise;
  }

  /** A new result promise for `inputId`; rejected at once with `closed` when given (the agent no longer runs turns). */
  expect(inputId: string, closed: Error | undefined): Promise<TurnResult> {
    const deferred = defer<TurnResult>();
    this.#results.set(inputId, deferred);
    if (closed !== undefined) deferred.reject(closed);
    return deferred.promise;
  }

  /** Makes a result for each claimed input nobody asked about yet, so `result()` finds it later. */
  claim(inputs: readonly PendingInput[]): void {
    for (const input of inputs) if (!this.#results.has(input.inputId)) this.#results.set(input.inputId, defer<TurnResult>());
  }

  /** Settles the results of every input the turn claimed. */
  settle(result: TurnResult): void {
    for (const inputId of result.inputIds) this.#results.get(inputId)?.resolve(result);
  }

  /** Rejects every result still open with `error` (a settled one stays settled). */
  rejectAll(error: () => Error): void {
    for (const deferred of this.#results.values()) deferred.reject(error());
  }
}
