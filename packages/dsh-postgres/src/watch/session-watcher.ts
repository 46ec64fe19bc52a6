/**
 * Live events across hosts without polling: one connection per store LISTENs on the schema's channel;
 * every committed append batch NOTIFYs `<id> <next seq>` (in the same statement as the insert, so the
 * notification is delivered on commit). Each watch catches up from its next seq when notified — and
 * once on subscribe, and after a reconnect — so it sees every event once, in order.
 */
import type { SessionEvent } from 'dsh-codec';
import type { PoolClient } from 'pg';
import type { PostgresSettings } from '../postgres-settings.js';
import { readEventLines } from '../read/read-stored-log.js';

type Watch = {
  next: number;
  listener: (events: readonly SessionEvent[]) => void;
  running: Promise<void> | undefined;
  again: boolean;
  closed: boolean;
};

/** Whether a watch was notified again while it read (its flags change across awaits). */
function repeat(watch: Watch): boolean {
  return watch.again && !watch.closed;
}

/** The watches of one store and their LISTEN connection. @internal */
export class SessionWatcher {
  readonly #settings: PostgresSettings;
  readonly #watches = new Map<string, Set<Watch>>();
  #client: Promise<PoolClient> | undefined;
  #closed = false;

  constructor(settings: PostgresSettings) {
    this.#settings = settings;
  }

  /** Watches `id` from `fromSeq`; resolves once listening and caught up with what is stored. */
  async watch(id: string, fromSeq: number, listener: (events: readonly SessionEvent[]) => void): Promise<() => void> {
    await this.#listening();
    const watch: Watch = { next: Math.max(0, fromSeq), listener, running: undefined, again: false, closed: false };
    const set = this.#watches.get(id) ?? new Set();
    set.add(watch);
    this.#watches.set(id, set);
    await this.#catchUp(id, watch);
    return () => {
      watch.closed = true;
      set.delete(watch);
      if (set.size === 0 && this.#watches.get(id) === set) this.#watches.delete(id);
      if (this.#watches.size === 0) void this.#unlisten();
    };
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#watches.clear();
    await this.#unlisten();
  }

  #listening(): Promise<PoolClient> {
    this.#client ??= (async () => {
      const client = await this.#settings.pool.connect();
      client.on('notification', (message) => {
        const [id, next] = (message.payload ?? '').split(' ');
        if (id === undefined) return;
        for (const watch of this.#watches.get(id) ?? []) if (Number(next) > watch.next) void this.#catchUp(id, watch);
      });
      client.on('error', () => {
        // The connection broke: listen again on a fresh one and catch every watch up.
        this.#client = undefined;
        client.release(true);
        if (this.#closed || this.#watches.size === 0) return;
        setTimeout(() => {
          void this.#listening().then(
            () => {
              for (const [id, set] of this.#watches) for (const watch of set) void this.#catchUp(id, watch);
            },
            () => undefined,
          );
        }, 200).unref();
      });
      await client.query(`LISTEN "${this.#settings.channel}"`);
      return client;
    })();
    const pending = this.#client;
    pending.catch(() => {
      if (this.#client === pending) this.#client = undefined;
    });
    return pending;
  }

  async #unlisten(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    if (pending === undefined) return;
    const client = await pending.catch(() => undefined);
    if (client === undefined) return;
    try {
      await client.query(`UNLISTEN "${this.#settings.channel}"`);
      client.release();
    } catch {
      client.release(true);
    }
  }

  /** Reads and delivers what the watch has not seen yet; one read at a time per watch, repeated when notified meanwhile. */
  #catchUp(id: string, watch: Watch): Promise<void> {
    if (watch.running !== undefined) {
      watch.again = true;
      return watch.running;
    }
    watch.running = (async () => {
      do {
        watch.again = false;
        const lines = await readEventLines(this.#settings, id, watch.next).catch(() => []);
        if (watch.closed || lines.length === 0) continue;
        // Lines were validated when their Session appended them.
        const events = lines.map((line) => JSON.parse(line) as SessionEvent).filter((event) => event.seq >= watch.next);
        if (events.length === 0) continue;
        watch.next = (events.at(-1) as SessionEvent).seq + 1;
        watch.listener(events);
      } while (repeat(watch));
      watch.running = undefined;
    })();
    return watch.running;
  }
}
