import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isPluginEvent } from 'dsh-codec';
import { createMemoryStore, openSessionStore, SessionError, type Session, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';

/** Appends `count` ignorable plugin events (what the Agent SDK store writes) and flushes. */
async function appendNotes(session: Session, count: number, text = 'note'): Promise<void> {
  for (let index = 0; index < count; index++) session.append('test/note', { text: `${text} ${String(index)}` }, { ignorable: true });
  await session.flush();
}

describe('SessionStore.reopen on JSONL', () => {
  let dir: TempDir;
  let store: SessionStore;
  beforeEach(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterEach(async () => {
    await store.close();
    await dir.remove();
  });

  it('continues from the closed session’s events without reading the log again: the very same event objects, the lease held, appends durable', async () => {
    const first = await store.create({ id: 'r1', title: 'reopened' });
    await appendNotes(first, 50);
    const before = first.events;
    await first.close();
    const reopened = await store.reopen(first);
    // A read of the log would have decoded new objects; these are the closed session's own.
    const stored = reopened.eventsFrom(0, before.length);
    expect(stored).toHaveLength(before.length);
    stored.forEach((event, index) => {
      expect(event).toBe(before[index]);
    });
    expect(reopened.nextSeq).toBeGreaterThanOrEqual(before.length);
    const other = await openSessionStore({ dir: dir.path });
    try {
      const busy = await other.open('r1').catch((error: unknown) => error);
      expect(SessionError.is(busy) && busy.code).toBe('SESSION_BUSY');
      await appendNotes(reopened, 3, 'after');
      await reopened.close();
      const read = await other.observe('r1');
      expect(read.events.map((event) => event.data)).toEqual(reopened.events.map((event) => event.data));
    } finally {
      await other.close();
    }
  });

  it('stays flat and exact over many reopens: each continues where the last one ended', async () => {
    let session = await store.create({ id: 'r2', title: 'many' });
    for (let round = 0; round < 60; round++) {
      await appendNotes(session, 2, `round ${String(round)}`);
      session = await store.reopen(session);
    }
    const expected = session.events.map((event) => event.data);
    expect(session.title).toBe('many');
    await session.close();
    const fresh = await openSessionStore({ dir: dir.path });
    try {
      expect((await fresh.observe('r2')).events.map((event) => event.data)).toEqual(expected);
    } finally {
      await fresh.close();
    }
    expect(expected.filter((data) => JSON.stringify(data).includes('round 59'))).toHaveLength(2);
  });

  it('reads the log again when another writer wrote in between, and sees its events', async () => {
    const mine = await store.create({ id: 'r3', title: 'shared' });
    await appendNotes(mine, 5, 'mine');
    await mine.close();
    const other = await openSessionStore({ dir: dir.path });
    try {
      const theirs = await other.open('r3');
      await appendNotes(theirs, 4, 'theirs');
      await theirs.close();
    } finally {
      await other.close();
    }
    const reopened = await store.reopen(mine);
    const texts = reopened.events.flatMap((event) => (isPluginEvent(event, 'test/note') ? [(event.data as { text: string }).text] : []));
    expect(texts).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => `mine ${String(index)}`),
      ...[0, 1, 2, 3].map((index) => `theirs ${String(index)}`),
    ]);
    expect(reopened.eventsFrom(0, 1)[0]).not.toBe(mine.events[0]);
    await reopened.close();
  });

  it('notices an edit in place that keeps the file’s size (hostile or not) and reads the log again', async () => {
    const session = await store.create({ id: 'r4', title: 'edited' });
    await appendNotes(session, 3, 'plain');
    await session.close();
    const file = join(dir.path, 'r4.jsonl');
    const text = await readFile(file, 'utf8');
    expect(text).toContain('plain 1');
    await writeFile(file, text.replace('plain 1', 'PLAIN 1'));
    const reopened = await store.reopen(session);
    const texts = reopened.events.flatMap((event) => (isPluginEvent(event, 'test/note') ? [(event.data as { text: string }).text] : []));
    expect(texts).toEqual(['plain 0', 'PLAIN 1', 'plain 2']);
    await reopened.close();
  });

  it('closes an open session first, and refuses one this store holds open under another Session with SESSION_BUSY', async () => {
    const open = await store.create({ id: 'r5', title: 'open' });
    open.append('test/note', { text: 'pending' }, { ignorable: true });
    const reopened = await store.reopen(open);
    expect(open.closed).toBe(true);
    expect(reopened.events.some((event) => isPluginEvent(event, 'test/note'))).toBe(true);
    const error = await store.reopen(open).catch((caught: unknown) => caught);
    expect(SessionError.is(error) && error.code).toBe('SESSION_BUSY');
    await reopened.close();
  });
});

describe('SessionStore.reopen on a backend that cannot tell whether the log changed', () => {
  it('opens the session as open(id) does', async () => {
    const store = createMemoryStore();
    const session = await store.create({ id: 'm1', title: 'memory' });
    await appendNotes(session, 2);
    const reopened = await store.reopen(session);
    expect(reopened.events.map((event) => event.data)).toEqual(expect.arrayContaining([{ text: 'note 0' }, { text: 'note 1' }]));
    await reopened.close();
    await store.close();
  });
});
