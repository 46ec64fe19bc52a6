// SPEC §24: `host.list({ busy: true })` lists the live and held sessions only, so a caller asking who
// shares a directory (the CLI's warning after a fork) pays for the busy sessions, not the data folder.
import { describe, expect, it } from 'vitest';
import { createMemoryBackend, createMemoryStore, type SessionStore } from 'dsh-session';
import { createHost } from 'dsh-host';

async function folderWithIdleLiveAndHeld(store: SessionStore, other: SessionStore) {
  const host = createHost({ store });
  await host.create({ id: 'live-here' });
  await host.create({ id: 'idle' });
  await host.release('idle');
  const heldElsewhere = await other.create({ id: 'held-elsewhere' });
  return { host, heldElsewhere };
}

describe('host.list({ busy: true })', () => {
  it('lists only the sessions live here or held by another process', async () => {
    const backend = createMemoryBackend();
    const store = createMemoryStore({ backend });
    const other = createMemoryStore({ backend });
    const { host, heldElsewhere } = await folderWithIdleLiveAndHeld(store, other);
    const busy = await host.list({ busy: true });
    expect(busy.map((item) => item.id).sort()).toEqual(['held-elsewhere', 'live-here']);
    expect((await host.list()).map((item) => item.id).sort()).toEqual(['held-elsewhere', 'idle', 'live-here']);
    await heldElsewhere.close();
    await host.close();
    await Promise.all([store.close(), other.close()]);
  });

  it('still lists only the busy ones over a store whose list ignores the option', async () => {
    const backend = createMemoryBackend();
    const inner = createMemoryStore({ backend });
    // A store written before the option: every session, whatever it is asked.
    const store: SessionStore = { ...inner, list: () => inner.list() };
    const other = createMemoryStore({ backend });
    const { host, heldElsewhere } = await folderWithIdleLiveAndHeld(store, other);
    expect((await host.list({ busy: true })).map((item) => item.id).sort()).toEqual(['held-elsewhere', 'live-here']);
    await heldElsewhere.close();
    await host.close();
    await Promise.all([inner.close(), other.close()]);
  });
});
