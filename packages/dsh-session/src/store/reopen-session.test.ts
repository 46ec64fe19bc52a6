import { readFileSync } from 'node:fs';
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

/** Another store object on `dir` (another writer, as another process would be) opens `id`, appends `count` notes and closes it. */
async function appendAsAnotherWriter(dir: string, id: string, count: number, text: string): Promise<void> {
  const other = await openSessionStore({ dir });
  try {
    const theirs = await other.open(id);
    await appendNotes(theirs, count, text);
    await theirs.close();
  } finally {
    await other.close();
  }
}

/** `session`'s events equal what a fresh store reads of its log. */
async function expectSameAsOpen(dir: string, session: Session): Promise<void> {
  const fresh = await openSessionStore({ dir });
  try {
    expect(JSON.parse(JSON.stringify(session.events))).toEqual(JSON.parse(JSON.stringify((await fresh.observe(session.id)).events)));
  } finally {
    await fresh.close();
  }
}

/** The bytes this process reads (`/proc/self/io` rchar: files, pipes and sockets) from now until the returned function is called. */
function readBytes(): () => number {
  const rchar = (): number => Number(/rchar: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))?.[1]);
  const start = rchar();
  return () => rchar() - start;
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

  it('takes up what another writer appended in between and sees its events, the closed session’s own events kept as they were', async () => {
    const mine = await store.create({ id: 'r3', title: 'shared' });
    await appendNotes(mine, 5, 'mine');
    await mine.close();
    await appendAsAnotherWriter(dir.path, 'r3', 4, 'theirs');
    const reopened = await store.reopen(mine);
    const texts = reopened.events.flatMap((event) => (isPluginEvent(event, 'test/note') ? [(event.data as { text: string }).text] : []));
    expect(texts).toEqual([
      ...[0, 1, 2, 3, 4].map((index) => `mine ${String(index)}`),
      ...[0, 1, 2, 3].map((index) => `theirs ${String(index)}`),
    ]);
    // Not read again: the bytes before the other writer's were checked, not decoded.
    expect(reopened.eventsFrom(0, 1)[0]).toBe(mine.events[0]);
    await expectSameAsOpen(dir.path, reopened);
    reopened.append('test/note', { text: 'after' }, { ignorable: true });
    await reopened.close();
    const fresh = await openSessionStore({ dir: dir.path });
    try {
      expect(JSON.stringify((await fresh.observe('r3')).events.at(-1)?.data)).toContain('after');
    } finally {
      await fresh.close();
    }
  });

  it('reads only the bytes another writer appended, not the history before them', async () => {
    const mine = await store.create({ id: 'long', title: 'long' });
    // ~4 MiB in one batch (the writer seals it into segments), then a few own lines.
    for (let index = 0; index < 2000; index++)
      mine.append('test/note', { text: `history ${String(index)} ${'h'.repeat(2000)}` }, { ignorable: true });
    await mine.flush();
    await appendNotes(mine, 5, 'mine');
    await mine.close();
    await appendAsAnotherWriter(dir.path, 'long', 3, 'theirs');
    const read = readBytes();
    const reopened = await store.reopen(mine);
    const bytesRead = read();
    expect(reopened.events.filter((event) => isPluginEvent(event, 'test/note')).at(-1)?.data).toEqual({ text: 'theirs 2' });
    // The history is ~4 MiB; the reopen reads the last 4 KiB before the new lines, the new lines and the stamp.
    expect(bytesRead).toBeLessThan(256 * 1024);
    await expectSameAsOpen(dir.path, reopened);
    await reopened.close();
  });

  it('reads the log again when its bytes before another writer’s were edited before that writer opened it', async () => {
    const mine = await store.create({ id: 'r6', title: 'edited first' });
    await appendNotes(mine, 40, `plain ${'p'.repeat(200)}`);
    await mine.close();
    const file = join(dir.path, 'r6.jsonl');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('plain', 'PLAIN'));
    await appendAsAnotherWriter(dir.path, 'r6', 2, 'theirs');
    const reopened = await store.reopen(mine);
    expect(JSON.stringify(reopened.events)).toContain('PLAIN');
    expect(reopened.events.filter((event) => isPluginEvent(event, 'test/note')).at(-1)?.data).toEqual({ text: 'theirs 1' });
    await reopened.close();
  });

  it('reads the log again when its bytes before another writer’s were edited after that writer released it (the stamp is older than the edit)', async () => {
    const mine = await store.create({ id: 'r7', title: 'edited after' });
    await appendNotes(mine, 40, `plain ${'p'.repeat(200)}`);
    await mine.close();
    await appendAsAnotherWriter(dir.path, 'r7', 2, 'theirs');
    const file = join(dir.path, 'r7.jsonl');
    const text = await readFile(file, 'utf8');
    // Far from the end (the last 4 KiB are compared): only the stamp's age tells this edit apart.
    expect(text.indexOf('plain')).toBeLessThan(text.length - 8192);
    await writeFile(file, text.replace('plain', 'PLAIN'));
    const reopened = await store.reopen(mine);
    expect(JSON.stringify(reopened.events)).toContain('PLAIN');
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
