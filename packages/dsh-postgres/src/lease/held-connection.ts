/**
 * One pooled connection kept across statements that follow each other (the group committer's
 * batches): no pool checkout, idle-timer reset and listener swap per statement. It goes back to the
 * pool once nothing follows within the event-loop turn, so an idle store holds no connection; a
 * connection that failed, or reported an error while held, is destroyed instead of reused.
 */
import type { Pool, PoolClient } from 'pg';

type Held = { client: PoolClient; broken: Error | undefined; onError: (error: Error) => void };

/** A connection of `pool` held while statements follow each other. @internal */
export class HeldConnection {
  readonly #pool: Pool;
  #held: Held | undefined;
  #releaseQueued = false;

  constructor(pool: Pool) {
    this.#pool = pool;
  }

  /** The held connection, or a fresh one from the pool when none is held or the held one broke. */
  async client(): Promise<PoolClient> {
    if (this.#held?.broken !== undefined) this.#giveBack();
    if (this.#held !== undefined) return this.#held.client;
    const client = await this.#pool.connect();
    const held: Held = {
      client,
      broken: undefined,
      // A checked-out client without an 'error' listener would crash the process on a dropped connection.
      onError: (error) => {
        held.broken = error;
      },
    };
    client.on('error', held.onError);
    this.#held = held;
    return client;
  }

  /** `client` failed a statement: it may be broken or mid-transaction, so it is destroyed, never reused. */
  failed(client: PoolClient, error: unknown): void {
    if (this.#held?.client !== client) return;
    this.#held.broken ??= error instanceof Error ? error : new Error(String(error));
    this.#giveBack();
  }

  /**
   * Gives the connection back after this event-loop turn unless `busy()` says statements continue:
   * callers resolved by a statement queue their next one in callbacks that run before `setImmediate`.
   */
  releaseWhenIdle(busy: () => boolean): void {
    if (this.#releaseQueued || this.#held === undefined) return;
    this.#releaseQueued = true;
    setImmediate(() => {
      this.#releaseQueued = false;
      if (!busy()) this.#giveBack();
    });
  }

  #giveBack(): void {
    const held = this.#held;
    if (held === undefined) return;
    this.#held = undefined;
    held.client.off('error', held.onError);
    // release(error) destroys the connection instead of returning it to the idle set.
    held.client.release(held.broken);
  }
}
