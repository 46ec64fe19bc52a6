/**
 * @module Provenance: where a read's events lie in the storage of the backend that read them (a
 * PostgreSQL segment and how many of its events, a JSONL file's bytes), in a value only that backend
 * can mint and read. The store carries it from a read to a fork child's `create`, which may then refer
 * to the stored prefix or copy its bytes instead of encoding the events again; the store never looks
 * inside. Each backend makes its own kind once (`provenanceKind`); a value of one kind reads as
 * undefined through any other.
 */

declare const PROVENANCE: unique symbol;

/**
 * An opaque reference a backend minted for one of its reads (or for a session one of its writers
 * holds). It has no readable property: only the `ProvenanceKind` that minted it gives its value back.
 */
export type Provenance = { readonly [PROVENANCE]: 'provenance' };

/** One backend's provenance: `mint` wraps a value, `read` unwraps one this kind minted (undefined for anything else). */
export type ProvenanceKind<T> = {
  mint(value: T): Provenance;
  read(provenance: Provenance | undefined): T | undefined;
};

/**
 * A new provenance kind for values `T`, private to whoever holds it (a backend module keeps it
 * unexported). Each call makes a class of its own, whose private field no other kind can reach.
 */
export function provenanceKind<T>(): ProvenanceKind<T> {
  class Minted {
    readonly #value: T;
    constructor(value: T) {
      this.#value = value;
      Object.freeze(this);
    }
    static valueOf(candidate: unknown): T | undefined {
      return typeof candidate === 'object' && candidate !== null && #value in candidate ? candidate.#value : undefined;
    }
  }
  return {
    mint: (value) => new Minted(value) as unknown as Provenance,
    read: (provenance) => Minted.valueOf(provenance),
  };
}
