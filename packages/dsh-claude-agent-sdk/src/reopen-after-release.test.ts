import { afterAll, describe, expect, it } from 'vitest';
import type { SessionStore } from 'dsh-session';
import { createClaudeSessionStore, type SessionStoreEntry } from 'dsh-claude-agent-sdk';
import { freshProject, userEntry } from './__fixtures__/claude-store-contract.js';
import { openTempJsonlStore } from './__fixtures__/temp-jsonl-store.js';

const { store, close } = await openTempJsonlStore('dsh-claude-reopen-');
afterAll(close);

/**
 * `store`, counting the calls that read a whole stored transcript: `open`, `observe`, and a `reopen`
 * whose session does not hold the closed one's very event objects (it read and decoded the log again).
 */
function countingStore(inner: SessionStore): { store: SessionStore; wholeReads: () => number } {
  let reads = 0;
  return {
    store: {
      ...inner,
      open: (id) => {
        reads++;
        return inner.open(id);
      },
      observe: (id) => {
        reads++;
        return inner.observe(id);
      },
      reopen: async (previous) => {
        const [before] = previous.eventsFrom(0, 1);
        const session = await inner.reopen(previous);
        if (session.eventsFrom(0, 1)[0] !== before) reads++;
        return session;
      },
    },
    wholeReads: () => reads,
  };
}

const uuidsOf = (entries: SessionStoreEntry[] | null): (string | undefined)[] => (entries ?? []).map((entry) => entry.uuid);

describe('a writer that releases the lease between appends (maxHoldMs)', () => {
  it('reads the whole transcript once, not again at every reopen: later holds read only what was added', async () => {
    const counted = countingStore(store);
    // Released right after every append, as a long-running writer is every maxHoldMs.
    const claude = createClaudeSessionStore({ store: counted.store, holdMs: 0, maxHoldMs: 0 });
    const key = { projectKey: freshProject(), sessionId: 'long-running' };
    const written: string[] = [];
    for (let batch = 0; batch < 25; batch++) {
      const entries = [0, 1, 2].map((index) => userEntry(`u-${String(batch)}-${String(index)}`, `batch ${String(batch)}`));
      await claude.append(key, entries);
      written.push(...entries.map((entry) => entry.uuid as string));
    }
    // The first append creates the session; the second reads it whole once; the other 23 reopen.
    expect(counted.wholeReads()).toBeLessThanOrEqual(2);
    // A retried batch is still recognised after many reopens (its uuids were carried over).
    await claude.append(key, [userEntry('u-3-0', 'batch 3'), userEntry('u-3-1', 'batch 3')]);
    await claude.close();
    expect(uuidsOf(await createClaudeSessionStore({ store }).load(key))).toEqual(written);
  });

  it('sees what another writer appended between its holds: uuids, order and titles stay exact', async () => {
    const key = { projectKey: freshProject(), sessionId: 'two-writers' };
    const mine = createClaudeSessionStore({ store, holdMs: 0, maxHoldMs: 0 });
    const theirs = createClaudeSessionStore({ store, holdMs: 0, maxHoldMs: 0 });
    await mine.append(key, [userEntry('m-0', 'first prompt')]);
    await mine.append(key, [userEntry('m-1', 'second')]);
    await theirs.append(key, [userEntry('t-0', 'theirs'), { type: 'custom-title', customTitle: 'Named by them', uuid: 't-title' }]);
    // Their batch, retried through this writer, is recognised as stored; a new one lands after it.
    await mine.append(key, [userEntry('t-0', 'theirs')]);
    await mine.append(key, [userEntry('m-2', 'third')]);
    await mine.close();
    await theirs.close();
    expect(uuidsOf(await createClaudeSessionStore({ store }).load(key))).toEqual(['m-0', 'm-1', 't-0', 't-title', 'm-2']);
    const summary = (await store.list()).find((each) => each.title === 'Named by them');
    expect(summary).toBeDefined();
  });
});
