/**
 * @module delta-fan-out
 * The ephemeral streaming pieces of an agent's model requests, handed to every subscribed listener.
 */
import type { ModelDelta } from './model.js';

/**
 * A piece of the response streaming in step `step` of turn `turn`: `text` and `reasoning` add to
 * what came before in that step. Ephemeral: the complete `assistant/message` is what the log keeps.
 */
export type AgentDelta = { turn: number; step: number; text?: string; reasoning?: string };

/** Listeners of an agent's deltas; a listener that throws is ignored (a UI must never break the turn it watches). */
export class DeltaFanOut {
  readonly #listeners = new Set<(delta: AgentDelta) => void>();

  /** Adds `listener`; returns the function that removes it. */
  subscribe(listener: (delta: AgentDelta) => void): () => void {
    this.#listeners.add(listener);
    return () => {
      this.#listeners.delete(listener);
    };
  }

  /** Hands the non-empty parts of `delta` of step `step` of turn `turn` to every listener. */
  emit(turn: number, step: number, delta: ModelDelta): void {
    if (this.#listeners.size === 0) return;
    const event: AgentDelta = { turn, step };
    if (delta.text !== undefined && delta.text !== '') event.text = delta.text;
    if (delta.reasoning !== undefined && delta.reasoning !== '') event.reasoning = delta.reasoning;
    if (event.text === undefined && event.reasoning === undefined) return;
    for (const listener of this.#listeners) {
      try {
        listener(event);
      } catch {
        // A UI listener must never break the turn it watches.
      }
    }
  }
}
