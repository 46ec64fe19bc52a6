import { describe, expect, it } from 'vitest';
import { createMemoryBackend, createSessionStore, type SessionBackend } from 'dsh-session';

/** A real memory backend whose `read` calls are counted while in flight (they wait a few ms each). */
function countingBackend(): { backend: SessionBackend; inner: SessionBackend; peak: () => number; reads: () => number } {
  const inner = createMemoryBackend();
  let inFlight = 0;
  let peak = 0;
  let reads = 0;
  const backend: SessionBackend = {
    ...inner,
    async read(id) {
      inFlight++;
      reads++;
      peak = Math.max(peak, inFlight);
      try {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return await inner.read(id);
      } finally {
        inFlight--;
      }
    },
  };
  return { backend, inner, peak: () => peak, reads: () => reads };
}

describe('SessionStore.list', () => {
  it('reads the summaries of changed sessions a few at a time, not one after another, and lists every session', async () => {
    const { backend, inner, peak, reads } = countingBackend();
    const writer = createSessionStore({ backend: inner });
    for (let index = 0; index < 12; index++)
      await (await writer.create({ id: `s${String(index).padStart(2, '0')}`, title: `t${String(index)}` })).close();
    const store = createSessionStore({ backend });
    const summaries = await store.list();
    expect(summaries.map((summary) => summary.id).sort()).toEqual(
      Array.from({ length: 12 }, (_, index) => `s${String(index).padStart(2, '0')}`),
    );
    expect(summaries.find((summary) => summary.id === 's07')?.title).toBe('t7');
    expect(reads()).toBe(12);
    expect(peak()).toBeGreaterThan(1);
    expect(peak()).toBeLessThanOrEqual(4);
    // Nothing changed: the next list reads nothing.
    await store.list();
    expect(reads()).toBe(12);
    await Promise.all([writer.close(), store.close()]);
  });

  it('leaves out a session deleted after the backend listed it, instead of failing the whole list', async () => {
    const inner = createMemoryBackend();
    const writer = createSessionStore({ backend: inner });
    for (const id of ['kept', 'doomed']) await (await writer.create({ id })).close();
    // The delete lands between the backend's listing and the read of that session's summary.
    const backend: SessionBackend = {
      ...inner,
      async list() {
        const refs = await inner.list();
        await writer.delete('doomed');
        return refs;
      },
    };
    const store = createSessionStore({ backend });
    expect((await store.list()).map((summary) => summary.id)).toEqual(['kept']);
    await Promise.all([writer.close(), store.close()]);
  });

  it('still fails when a summary read fails for any other reason', async () => {
    const inner = createMemoryBackend();
    const writer = createSessionStore({ backend: inner });
    await (await writer.create({ id: 'one' })).close();
    await (await writer.create({ id: 'two' })).close();
    const backend: SessionBackend = {
      ...inner,
      read: (id) => (id === 'two' ? Promise.reject(new Error('disk on fire')) : inner.read(id)),
    };
    const store = createSessionStore({ backend });
    await expect(store.list()).rejects.toMatchObject({ code: 'STORAGE_ERROR', message: expect.stringMatching(/disk on fire/) as unknown });
    await Promise.all([writer.close(), store.close()]);
  });

  it('with busy lists only the sessions held here or by another store, reading no other session (SPEC §24)', async () => {
    const { backend, inner, reads } = countingBackend();
    const writer = createSessionStore({ backend: inner });
    for (let index = 0; index < 5; index++) await (await writer.create({ id: `idle${String(index)}` })).close();
    const heldElsewhere = await writer.create({ id: 'held', title: 'kept open' });
    const store = createSessionStore({ backend });
    const mine = await store.create({ id: 'mine' });
    const busy = await store.list({ busy: true });
    expect(busy.map((summary) => summary.id).sort()).toEqual(['held', 'mine']);
    expect(busy.every((summary) => summary.busy)).toBe(true);
    expect(busy.find((summary) => summary.id === 'held')?.title).toBe('kept open');
    // Only the session held by the other store was read; none of the idle ones.
    expect(reads()).toBe(1);
    // The whole list still holds every session.
    expect((await store.list()).map((summary) => summary.id)).toHaveLength(7);
    await Promise.all([mine.close(), heldElsewhere.close()]);
    await Promise.all([writer.close(), store.close()]);
  });
});
