import { describe, expect, it } from 'vitest';
import { createMemoryStore } from 'dsh-session';
import { asSessionBackend, fastBackendOf, provenanceKind, type InheritedRecords, type Provenance } from 'dsh-session/internal';
import { createMemoryBackend } from '../memory/memory-backend.js';

// The store carries a backend's provenance from a read (or a held session) to a fork child's
// create without looking inside it: the backend gets back exactly the value it minted.

/** A memory backend that mints a provenance for every read and every held session, and records what each create was handed. */
function mintingBackend() {
  const kind = provenanceKind<{ read: number } | { held: string }>();
  const fast = fastBackendOf(createMemoryBackend());
  const minted: Provenance[] = [];
  const handed: (InheritedRecords | undefined)[] = [];
  let reads = 0;
  const backend = asSessionBackend({
    ...fast,
    async read(id) {
      const provenance = kind.mint({ read: ++reads });
      minted.push(provenance);
      return { ...(await fast.read(id)), provenance };
    },
    heldProvenance(id) {
      const provenance = kind.mint({ held: id });
      minted.push(provenance);
      return provenance;
    },
    create(id, header, events, inherited) {
      handed.push(inherited);
      return fast.create(id, header, events, inherited);
    },
  });
  return { backend, kind, minted, handed };
}

describe('provenance', () => {
  it('a cold fork hands create the very provenance its read minted; a live fork the one heldProvenance minted', async () => {
    const { backend, kind, minted, handed } = mintingBackend();
    const store = createMemoryStore({ backend });
    const parent = await store.create({ id: 'p', title: 'one' });
    parent.append('session/title', { title: 'two' });
    await parent.flush();

    // Live: the store holds `p` open, so the fork asks the backend for the held session's provenance.
    await (await store.fork('p', { atSeq: 1, id: 'live-kid' })).close();
    expect(handed.at(-1)?.count).toBe(2);
    expect(handed.at(-1)?.provenance).toBe(minted.at(-1));
    expect(kind.read(handed.at(-1)?.provenance)).toEqual({ held: 'p' });

    // Cold: one read, its provenance carried as it is.
    await parent.close();
    await (await store.fork('p', { atSeq: 0, id: 'cold-kid' })).close();
    expect(handed.at(-1)?.count).toBe(1);
    expect(handed.at(-1)?.provenance).toBe(minted.at(-1));
    expect(kind.read(handed.at(-1)?.provenance)).toEqual({ read: 1 });
    expect(handed.at(-1)?.events()).toEqual((await store.inspect('p')).events.slice(0, 1));

    // A new session inherits nothing: no provenance.
    await (await store.create({ id: 'fresh' })).close();
    expect(handed.at(-1)).toBeUndefined();
    await store.close();
  });
});
