/** A session backend over the memory backend whose appends fail on demand: a storage outage, or a lost lease. */
import { createMemoryBackend, SessionError, type SessionBackend, type SessionWriter } from 'dsh-session';

/** What the next appends meet: `'outage'` an I/O error (EIO, passing), `'lease-lost'` `SESSION_BUSY`, `'up'` nothing. */
export type StorageState = 'up' | 'outage' | 'lease-lost';

/** The backend and the switch: `state` is read at each append; `failures` counts the appends refused. */
export function flakyBackend(): { backend: SessionBackend; control: { state: StorageState; failures: number } } {
  const base = createMemoryBackend();
  const control = { state: 'up' as StorageState, failures: 0 };
  const wrap = (writer: SessionWriter, id: string): SessionWriter => ({
    read: () => writer.read(),
    replace: (header, events) => writer.replace(header, events),
    release: () => writer.release(),
    append: async (expectedNextSeq, events) => {
      if (control.state === 'outage') {
        control.failures += 1;
        throw Object.assign(new Error('EIO: i/o error, write'), { code: 'EIO' });
      }
      if (control.state === 'lease-lost') {
        control.failures += 1;
        throw new SessionError('SESSION_BUSY', `The lease on session ${id} was taken over.`, { sessionId: id });
      }
      await writer.append(expectedNextSeq, events);
    },
  });
  const backend: SessionBackend = {
    ...base,
    create: async (id, header, events) => wrap(await base.create(id, header, events), id),
    acquire: async (id) => wrap(await base.acquire(id), id),
  };
  return { backend, control };
}
