/**
 * Keeps this host's leases alive: every third of `leaseMs`, one statement renews every lease held
 * here whose generation is still the one taken. A lease that no longer matches was taken over: its
 * writer is told, so its next append fails fast (the append is fenced by the generation anyway).
 */
import type { PostgresSettings } from '../postgres-settings.js';

/** One held lease. */
type Held = { generation: string; onLost: () => void };

/** Renews the leases of one backend. @internal */
export class LeaseRenewer {
  readonly #context: PostgresSettings;
  readonly #held = new Map<string, Held>();
  #timer: NodeJS.Timeout | undefined;
  #renewing = false;

  constructor(context: PostgresSettings) {
    this.#context = context;
  }

  hold(id: string, generation: string, onLost: () => void): void {
    this.#held.set(id, { generation, onLost });
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => void this.renew(), Math.max(10, Math.floor(this.#context.leaseMs / 3)));
      // Renewal never keeps a process alive on its own.
      this.#timer.unref();
    }
  }

  drop(id: string, generation: string): void {
    if (this.#held.get(id)?.generation === generation) this.#held.delete(id);
    if (this.#held.size === 0) this.stop();
  }

  stop(): void {
    if (this.#timer !== undefined) clearInterval(this.#timer);
    this.#timer = undefined;
  }

  /** Renews every held lease in one statement; a failed round (server unreachable) is retried next time. */
  async renew(): Promise<void> {
    if (this.#renewing || this.#held.size === 0) return;
    this.#renewing = true;
    const entries = [...this.#held];
    try {
      const { rows } = await this.#context.pool.query<{ id: string }>(
        `UPDATE ${this.#context.schema}.sessions t SET lease_expires = clock_timestamp() + $3 * interval '1 millisecond'
           FROM unnest($1::text[], $2::bigint[]) AS h (id, generation)
          WHERE t.id = h.id AND t.generation = h.generation
         RETURNING t.id`,
        [entries.map(([id]) => id), entries.map(([, held]) => held.generation), this.#context.leaseMs],
      );
      const renewed = new Set(rows.map((row) => row.id));
      for (const [id, held] of entries) {
        if (renewed.has(id) || this.#held.get(id) !== held) continue;
        this.#held.delete(id);
        held.onLost();
      }
    } catch {
      // The next round retries; appends stay fenced by the generation meanwhile.
    } finally {
      this.#renewing = false;
    }
  }
}
