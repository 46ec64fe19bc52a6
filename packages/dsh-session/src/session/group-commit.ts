/**
 * Group commit for an append-only log: every append of a tick joins one write, flushes that arrive
 * while a write is in flight wait for it and then share the next one, so any number of writers cost
 * one write + fsync per batch and each `flush()` waits for at most two.
 */

type Waiter = { target: number; resolve: () => void; reject: (error: unknown) => void };

const RESOLVED = Promise.resolve();
/** The first retry after a failed write, and the most a retry waits: doubling in between. */
const FIRST_RETRY_MS = 25;
const MAX_RETRY_MS = 1_000;

export class GroupCommit {
  readonly #length: () => number;
  readonly #writeFrom: (from: number, to: number) => Promise<void>;
  #durable: number;
  #writing = false;
  #scheduled = false;
  #drainQueued = false;
  #waiters: Waiter[] = [];
  readonly #retryable: (error: unknown) => boolean;
  #retryMs = 0;
  #retryTimer: NodeJS.Timeout | undefined;

  /**
   * `length()` is how many entries the log holds now; `writeFrom(from, to)` makes entries
   * `from..to-1` durable (or throws, leaving them pending); the first `durable` are durable already.
   * After a failed write for which `retryable(error)` holds, the pending entries are written again by
   * themselves, with a backoff, until a write succeeds or fails for another reason.
   */
  constructor(
    length: () => number,
    writeFrom: (from: number, to: number) => Promise<void>,
    durable: number,
    retryable: (error: unknown) => boolean = () => false,
  ) {
    this.#length = length;
    this.#writeFrom = writeFrom;
    this.#durable = durable;
    this.#retryable = retryable;
  }

  /** How many entries are durable. */
  get durable(): number {
    return this.#durable;
  }

  /** Writes what was appended in this tick soon, even when nobody calls `flush()`. */
  schedule(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    setImmediate(() => {
      this.#scheduled = false;
      this.#drain();
    });
  }

  /** Resolves when every entry appended so far is durable; immediate when nothing is pending. */
  flush(): Promise<void> {
    const target = this.#length();
    if (this.#durable >= target) return RESOLVED;
    return new Promise<void>((resolve, reject) => {
      this.#waiters.push({ target, resolve, reject });
      this.#drain();
    });
  }

  /**
   * Starts a write once the current microtasks have run (`process.nextTick`), so every append made
   * by code resuming in this same tick (e.g. writers whose previous flush just resolved) joins the
   * batch instead of waiting for the next fsync. No timer: the write starts before any I/O is polled.
   */
  #drain(): void {
    if (this.#writing || this.#drainQueued) return;
    this.#drainQueued = true;
    process.nextTick(() => {
      this.#drainQueued = false;
      if (this.#writing || this.#durable >= this.#length()) return;
      this.#writing = true;
      void this.#writeBatch();
    });
  }

  /**
   * Writes the pending entries again after a backoff (doubling up to `MAX_RETRY_MS`): storage that
   * comes back gets them without anyone calling `flush()`. The timer does not keep the process alive.
   */
  #retryLater(): void {
    this.#retryMs = Math.min(MAX_RETRY_MS, this.#retryMs === 0 ? FIRST_RETRY_MS : this.#retryMs * 2);
    if (this.#retryTimer !== undefined) return;
    this.#retryTimer = setTimeout(() => {
      this.#retryTimer = undefined;
      this.#drain();
    }, this.#retryMs);
    this.#retryTimer.unref();
  }

  /** Writes every pending entry as one batch, then resolves the waiters it covers (all fail with it). */
  async #writeBatch(): Promise<void> {
    const from = this.#durable;
    const to = this.#length();
    try {
      await this.#writeFrom(from, to);
    } catch (error) {
      const waiters = this.#waiters;
      this.#waiters = [];
      this.#writing = false;
      if (this.#retryable(error)) this.#retryLater();
      else this.#retryMs = 0;
      for (const waiter of waiters) waiter.reject(error);
      return;
    }
    this.#retryMs = 0;
    this.#durable = to;
    const waiting = this.#waiters;
    this.#waiters = [];
    const done: Waiter[] = [];
    for (const waiter of waiting) (waiter.target <= to ? done : this.#waiters).push(waiter);
    this.#writing = false;
    // Entries appended during this write form the next batch, together with those appended by the
    // waiters resolved now (they run before the next tick).
    if (this.#durable < this.#length()) this.#drain();
    for (const waiter of done) waiter.resolve();
  }
}
