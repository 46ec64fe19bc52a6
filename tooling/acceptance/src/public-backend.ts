/**
 * @module A third-party `SessionBackend`, written against dsh-session's public entry only (the
 * interface, `SessionError`), as an author outside dsh would write one: records in a shared map,
 * one lease per session. No fast path of dsh's own backends: the store adapts it, validates what it
 * reads and hands a fork child all its events. A class on purpose (its methods use `this`).
 */
/* eslint-disable @typescript-eslint/require-await -- the interface is async; this backend keeps its storage in memory */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import {
  SessionError,
  type LeaseHolder,
  type SessionBackend,
  type SessionWriter,
  type StoredLog,
  type StoredSessionRef,
} from 'dsh-session';

type Stored = { header: SessionHeader; events: SessionEvent[]; version: number; holder: LeaseHolder | undefined };

/** The storage several `PublicBackend`s share, like processes sharing a database. */
export type PublicStorage = Map<string, Stored>;

/** A minimal backend over a `PublicStorage`; `close` releases only the leases it took. */
export class PublicBackend implements SessionBackend {
  readonly #writers = new Set<SessionWriter>();

  constructor(private readonly storage: PublicStorage) {}

  #get(id: string): Stored {
    const stored = this.storage.get(id);
    if (stored === undefined) throw new SessionError('SESSION_NOT_FOUND', `No session ${id}.`, { sessionId: id });
    return stored;
  }

  #busy(id: string, holder: LeaseHolder): SessionError {
    return new SessionError('SESSION_BUSY', `Session ${id} is held by pid ${String(holder.pid)}; fork it instead.`, {
      sessionId: id,
      holder,
    });
  }

  #lease(id: string, stored: Stored): SessionWriter {
    const holder: LeaseHolder = { pid: process.pid, host: 'public', since: Date.now() };
    stored.holder = holder;
    const owned = (): Stored => {
      if (this.storage.get(id) !== stored || stored.holder !== holder)
        throw new SessionError('SESSION_CLOSED', `The lease on ${id} was released.`, { sessionId: id });
      return stored;
    };
    const writer: SessionWriter = {
      read: async () => snapshot(owned()),
      append: async (expectedNextSeq, events) => {
        const log = owned();
        if (log.events.length !== expectedNextSeq)
          throw new SessionError('CORRUPT', `Append to ${id}: expected ${String(expectedNextSeq)} stored events.`, { sessionId: id });
        log.events.push(...events);
        log.version += 1;
      },
      replace: async (header, events) => {
        const log = owned();
        log.header = header;
        log.events = [...events];
        log.version += 1;
      },
      release: async () => {
        this.#writers.delete(writer);
        if (stored.holder === holder) stored.holder = undefined;
      },
    };
    this.#writers.add(writer);
    return writer;
  }

  async create(id: string, header: SessionHeader, events: readonly SessionEvent[]): Promise<SessionWriter> {
    if (this.storage.has(id)) throw new SessionError('SESSION_EXISTS', `Session ${id} exists.`, { sessionId: id });
    const stored: Stored = { header, events: [...events], version: 0, holder: undefined };
    this.storage.set(id, stored);
    return this.#lease(id, stored);
  }

  async acquire(id: string): Promise<SessionWriter> {
    const stored = this.#get(id);
    if (stored.holder !== undefined) throw this.#busy(id, stored.holder);
    return this.#lease(id, stored);
  }

  async read(id: string): Promise<StoredLog> {
    return snapshot(this.#get(id));
  }

  async exists(id: string): Promise<boolean> {
    return this.storage.has(id);
  }

  async list(): Promise<StoredSessionRef[]> {
    return [...this.storage].map(([id, stored]) => ({ id, stamp: String(stored.version) }));
  }

  async holder(id: string): Promise<LeaseHolder | undefined> {
    return this.storage.get(id)?.holder;
  }

  async delete(id: string): Promise<void> {
    const stored = this.#get(id);
    if (stored.holder !== undefined) throw this.#busy(id, stored.holder);
    this.storage.delete(id);
  }

  async close(): Promise<void> {
    for (const writer of [...this.#writers]) await writer.release();
  }
}

/** A fresh array of the stored records (the store freezes what it keeps). */
function snapshot(stored: Stored): StoredLog {
  return { header: stored.header, events: stored.events.slice() };
}
