/**
 * @module `createMemoryBackend()`: a `SessionBackend` in process memory (tests, ephemeral hosts).
 */
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import type { FastWriter, StoredRead } from '../fast-backend.js';
import { RecordsLog } from '../sources/records-log.js';
import type { SessionBackend, StoredSessionRef } from '../session-backend.js';
import { asSessionBackend } from '../backend-views.js';
import { SessionError, type LeaseHolder } from '../session-error.js';
import { busyError, notFoundError, existsError } from '../store-errors.js';

type MemoryLog = { header: SessionHeader; events: SessionEvent[]; version: number; holder: LeaseHolder | undefined };

/**
 * A `SessionBackend` in process memory, for tests and ephemeral hosts. Two stores built on the same
 * backend behave like two processes sharing one JSONL directory (leases included).
 */
export function createMemoryBackend(): SessionBackend {
  const logs = new Map<string, MemoryLog>();

  const get = (id: string): MemoryLog => {
    const log = logs.get(id);
    if (log === undefined) throw notFoundError(id);
    return log;
  };

  const lease = (id: string, log: MemoryLog): FastWriter => {
    const holder: LeaseHolder = { pid: process.pid, host: 'memory', since: Date.now() };
    log.holder = holder;
    let released = false;
    const owned = (): MemoryLog => {
      if (released || logs.get(id) !== log || log.holder !== holder) {
        throw new SessionError('SESSION_CLOSED', `The lease on session ${id} was released; reopen it to write.`, { sessionId: id });
      }
      return log;
    };
    return {
      read: () => Promise.resolve(snapshot(owned())),
      append: (expectedNextSeq, events) => {
        const current = owned();
        if (current.events.length !== expectedNextSeq) {
          return Promise.reject(
            new SessionError(
              'CORRUPT',
              `Append to ${id}: expected the stored log to end at seq ${expectedNextSeq - 1}, it ends at ${current.events.length - 1}.`,
              { sessionId: id },
            ),
          );
        }
        current.events.push(...events);
        current.version += 1;
        return Promise.resolve();
      },
      replace: (header, events) => {
        const current = owned();
        current.header = header;
        current.events = [...events];
        current.version += 1;
        return Promise.resolve();
      },
      discardTornTail: () => Promise.resolve(),
      release: () => {
        if (!released && log.holder === holder) log.holder = undefined;
        released = true;
        return Promise.resolve();
      },
    };
  };

  return asSessionBackend({
    create(id, header, events, inherited) {
      if (logs.has(id)) return Promise.reject(existsError(id));
      const log: MemoryLog = { header, events: [...(inherited?.events() ?? []), ...events], version: 0, holder: undefined };
      logs.set(id, log);
      return Promise.resolve(lease(id, log));
    },
    acquire(id) {
      const log = get(id);
      if (log.holder !== undefined) return Promise.reject(busyError(id, log.holder));
      return Promise.resolve(lease(id, log));
    },
    read(id) {
      return Promise.resolve(snapshot(get(id)));
    },
    exists(id) {
      return Promise.resolve(logs.has(id));
    },
    list() {
      const refs: StoredSessionRef[] = [...logs].map(([id, log]) => ({ id, stamp: String(log.version) }));
      return Promise.resolve(refs);
    },
    holder(id) {
      return Promise.resolve(logs.get(id)?.holder);
    },
    delete(id) {
      const log = get(id);
      if (log.holder !== undefined) return Promise.reject(busyError(id, log.holder));
      logs.delete(id);
      return Promise.resolve();
    },
    close() {
      // Stores may share one memory backend; each releases its own leases, the memory stays.
      return Promise.resolve();
    },
  });
}

function snapshot(log: MemoryLog): StoredRead {
  // Only Sessions of a store write here, and they validated every event they appended.
  return { log: new RecordsLog(log.header, log.events.slice(), true) };
}
