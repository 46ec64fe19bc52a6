import type { SessionEvent } from 'dsh-codec';

/** What a peer's fork produced: its latency and the bytes it wrote. */
export interface ForkMeasurement {
  readonly ms: number;
  readonly bytes: number;
}

/** The history every peer forks, and where dsh cuts it. */
export interface PeerInput {
  readonly size: number;
  readonly events: readonly SessionEvent[];
  /** The dsh cut: first `tool/call` of a step with ≥ 2 calls, at or after the middle. */
  readonly cut: number;
  /** A directory of its own on the disk under test. */
  readonly dir: string;
}

/** Facts about a peer's fork, observed on a child it produced (not claimed). */
export interface ForkObservation {
  /** The peer record the fork cut at, in the peer's own terms. */
  readonly cutAt: string;
  /** What the stored child ends with. */
  readonly childEnds: string;
  /** The child's records vs the parent's records. */
  readonly records: string;
}

/** A peer, driven through its published API. */
export interface PeerDriver {
  readonly name: string;
  /** The API that forks. */
  readonly api: string;
  /** Writes the parent history in the peer's own format; returns its size on disk. */
  prepare(input: PeerInput): Promise<{ parentBytes: number }>;
  /** One fork at the peer's record closest to (at or before) the dsh cut. */
  fork(): Promise<ForkMeasurement>;
  /** Forks once more and describes the child. */
  observe(): Promise<ForkObservation>;
  /** Removes what `prepare` and `fork` wrote. */
  dispose(): Promise<void>;
}
