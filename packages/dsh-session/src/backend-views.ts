/**
 * @module The two views between the public `SessionBackend` and dsh's own `FastBackend`:
 * `asSessionBackend(fast)` is the public face of a dsh backend (it keeps the fast one in a private
 * field, so only this package can find it again), and `fastBackendOf(backend)` is what the store
 * works against — that fast backend, or an adapter over a backend that implements only the public
 * interface (its reads are records the store validates; a fork child's events are all passed to
 * `create`). A copy of a public face (`{ ...backend, read }`) carries no private field: it is a
 * public backend like any other.
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { FastBackend, FastWriter, InheritedRecords } from './fast-backend.js';
import type { SessionBackend, SessionWriter, StoredLog, StoredSessionRef } from './session-backend.js';
import { SessionError, type LeaseHolder } from './session-error.js';
import { RecordsLog } from './sources/records-log.js';

function publicWriter(id: string, writer: FastWriter): SessionWriter {
  return {
    read: async () => (await writer.read()).log.storedLog(id),
    append: (expectedNextSeq, events) => writer.append(expectedNextSeq, events),
    replace: (header, events) => writer.replace(header, events),
    release: () => writer.release(),
  };
}

/** The public face of a dsh backend. Its methods are own properties, so a spread copy still works (as a public backend). */
class DshBackend implements SessionBackend {
  readonly #fast: FastBackend;
  readonly create: (id: string, header: SessionHeader, events: readonly SessionEvent[]) => Promise<SessionWriter>;
  readonly acquire: (id: string) => Promise<SessionWriter>;
  readonly read: (id: string) => Promise<StoredLog>;
  readonly exists: (id: string) => Promise<boolean>;
  readonly list: () => Promise<StoredSessionRef[]>;
  readonly holder: (id: string) => Promise<LeaseHolder | undefined>;
  readonly delete: (id: string) => Promise<void>;
  readonly close: () => Promise<void>;

  constructor(fast: FastBackend) {
    this.#fast = fast;
    this.create = async (id, header, events) => publicWriter(id, await fast.create(id, header, events));
    this.acquire = async (id) => publicWriter(id, await fast.acquire(id));
    this.read = async (id) => (await fast.read(id)).log.storedLog(id);
    this.exists = (id) => fast.exists(id);
    this.list = () => fast.list();
    this.holder = (id) => fast.holder(id);
    this.delete = (id) => fast.delete(id);
    this.close = () => fast.close();
  }

  static fastOf(backend: SessionBackend): FastBackend | undefined {
    return #fast in backend ? backend.#fast : undefined;
  }
}

/** The public `SessionBackend` face of a dsh backend; `createSessionStore` finds the fast one behind it. */
export function asSessionBackend(fast: FastBackend): SessionBackend {
  return new DshBackend(fast);
}

function fastWriter(writer: SessionWriter): FastWriter {
  return {
    read: async () => {
      const { header, events } = await writer.read();
      return { log: new RecordsLog(header, events, false) };
    },
    append: (expectedNextSeq, events) => writer.append(expectedNextSeq, events),
    replace: (header, events) => writer.replace(header, events),
    // Records are whole events: a public backend's log never has a torn line.
    discardTornTail: () => Promise.resolve(),
    release: () => writer.release(),
  };
}

/** `exists` of a backend that offers none: a read, `SESSION_NOT_FOUND` meaning no. */
async function existsByRead(backend: SessionBackend, id: string): Promise<boolean> {
  try {
    await backend.read(id);
    return true;
  } catch (error) {
    if (SessionError.is(error) && error.code === 'SESSION_NOT_FOUND') return false;
    throw error;
  }
}

/** The backend the store works against: a dsh backend's fast one, else an adapter over the public interface. */
export function fastBackendOf(backend: SessionBackend): FastBackend {
  const fast = DshBackend.fastOf(backend);
  if (fast !== undefined) return fast;
  const all = (events: readonly SessionEvent[], inherited: InheritedRecords | undefined): readonly SessionEvent[] =>
    inherited === undefined || inherited.count <= 0 ? events : [...inherited.events(), ...events];
  return {
    create: async (id, header, events, inherited) => fastWriter(await backend.create(id, header, all(events, inherited))),
    acquire: async (id) => fastWriter(await backend.acquire(id)),
    read: async (id) => {
      const { header, events } = await backend.read(id);
      return { log: new RecordsLog(header, events, false) };
    },
    exists: (id) => (backend.exists === undefined ? existsByRead(backend, id) : backend.exists(id)),
    list: () => backend.list(),
    holder: async (id) => backend.holder?.(id),
    delete: (id) => backend.delete(id),
    close: async () => backend.close?.(),
  };
}
