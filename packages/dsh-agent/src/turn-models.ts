/**
 * @module turn-models
 * Which model answers a turn (SPEC §21): the session's recorded `session/config.model` when the
 * agent was given a resolver, else the agent's own model. Resolved models are kept per spec; a spec
 * that cannot be resolved answers every request with the resolver's error — never another model.
 */
import type { Model } from './model.js';

/** The models of an agent's turns: its own, and the recorded specs its resolver turns into models. */
export class TurnModels {
  readonly #own: Model;
  readonly #resolve: ((spec: string) => Promise<Model>) | undefined;
  readonly #resolved = new Map<string, Promise<Model>>();

  constructor(own: Model, resolve: ((spec: string) => Promise<Model>) | undefined) {
    this.#own = own;
    this.#resolve = resolve;
  }

  /** The spec that answers a session whose config records `recorded` (undefined: none recorded). */
  specFor(recorded: string | undefined): string {
    return recorded !== undefined && this.#resolve !== undefined ? recorded : this.#own.name;
  }

  /** The model for `recorded`; a resolver failure becomes a model whose every request fails with why. */
  async modelFor(recorded: string | undefined): Promise<Model> {
    const spec = this.specFor(recorded);
    if (spec === this.#own.name || this.#resolve === undefined) return this.#own;
    let pending = this.#resolved.get(spec);
    if (pending === undefined) {
      pending = this.#resolve(spec);
      this.#resolved.set(spec, pending);
    }
    try {
      return await pending;
    } catch (error) {
      // Never another model in its place: the turn ends with the resolver's error (e.g. MODEL_CONFIG).
      this.#resolved.delete(spec);
      return { name: spec, complete: () => Promise.reject(error instanceof Error ? error : new Error(String(error))) };
    }
  }
}
