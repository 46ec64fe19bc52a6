// SPEC §24 (eight peers' first turns): fork children of one observation share one decode of the events
// they inherit. Each child's first model request walks its whole inherited history in windows
// (`Session.eventsFrom`); before, every child parsed the parent's segment lines again for itself.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openSessionStore, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `turns` completed turns, each with a user message of `size` bytes (past 1 MiB the writer seals them), and flushes. */
async function grow(session: Session, turns: number, size: number): Promise<void> {
  const first = session.events.filter((event) => event.type === 'turn/start').length + 1;
  for (let turn = first; turn < first + turns; turn += 1) {
    session.append('turn/start', { turn });
    session.append('user/message', {
      message: { id: `u${String(turn)}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(size) }] },
    });
    session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.flush();
}

/** A child's inherited events read as a turn reads them: in windows of `window` events. */
function readInWindows(session: Session, count: number, window: number) {
  const events = [];
  for (let from = 0; from < count; from += window) events.push(...session.eventsFrom(from, Math.min(count, from + window)));
  return events;
}

describe('fork children of one observation share the decoded inherited prefix', { timeout: 120_000 }, () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
    const parent = await store.create({ id: 'parent', title: 'long' });
    await grow(parent, 7, 200_000);
    await grow(parent, 40, 100);
    await grow(parent, 7, 200_000);
    await grow(parent, 3, 100);
    await parent.close();
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('every child hands out the very same frozen events for its inherited prefix, equal to the parent’s, each line parsed once', async () => {
    const expected = (await store.inspect('parent')).events;
    const observation = await store.observe('parent');
    const cut = expected.length - 2;
    const children = await Promise.all(['a', 'b', 'c'].map((id) => store.fork(observation, { atSeq: cut, id })));
    try {
      const [first, ...others] = children.map((child) => readInWindows(child, cut + 1, 7));
      expect(first).toEqual(expected.slice(0, cut + 1));
      expect(Object.isFrozen(first?.[cut])).toBe(true);
      for (const events of others) {
        expect(events).toHaveLength(cut + 1);
        // Identity, not equality: one decode shared, none repeated per child.
        expect(events.every((event, index) => event === first?.[index])).toBe(true);
      }
      // A second walk by the same child, in other windows, decodes nothing again either.
      const again = readInWindows(children[0] as Session, cut + 1, 11);
      expect(again.every((event, index) => event === first?.[index])).toBe(true);
    } finally {
      for (const child of children) await child.close();
    }
  });

  it('a resumed session (open) still parses each window anew: its walk holds one window at a time, not the whole log', async () => {
    const session = await store.open('parent');
    try {
      const count = session.nextSeq;
      const once = readInWindows(session, count, 64);
      const twice = readInWindows(session, count, 64);
      expect(twice).toEqual(once);
      // The segments' events are not kept between reads (SPEC §24: resume in bounded memory).
      expect(once[1]).not.toBe(twice[1]);
    } finally {
      await session.close();
    }
  });
});
