import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMemoryStore, openSessionStore, type SessionStore } from 'dsh-session';
import { makeTempDir, type TempDir } from '@dsh/test-utils';
import { validatedLinesSource } from '../sources/validated-lines.js';

// `observation.copyEvents()` hands out events the caller owns (SPEC §12 keeps `events` immutable and
// shared): new, unfrozen, deep-equal to `events`, and nothing in them reaches the store or another caller.

/** Every object in `value` (the value itself included) is unfrozen. */
function everyObjectUnfrozen(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return true;
  if (Object.isFrozen(value)) return false;
  return Object.values(value).every(everyObjectUnfrozen);
}

/** The data of the `plugin/note` event of `events`. */
function noteData(events: readonly { type: string; data: unknown }[]): { nested: { list: unknown[] } } & Record<string, unknown> {
  return events.find((event) => event.type === 'plugin/note')?.data as { nested: { list: unknown[] } } & Record<string, unknown>;
}

/** Writes a session with nested data and closes it (the JSONL store stamps it as verified). */
async function writeSession(store: SessionStore, id: string): Promise<void> {
  const session = await store.create({ id, title: 'owned copies' });
  session.append('plugin/note', { nested: { list: [1, { deep: 'x' }] }, ['__proto__']: { kept: true } }, { ignorable: true });
  session.append('turn/start', { turn: 1 });
  session.append('turn/end', { turn: 1, reason: { kind: 'completed' } });
  await session.close();
}

describe('observation.copyEvents', () => {
  let dir: TempDir;
  let jsonl: SessionStore;
  beforeAll(async () => {
    dir = await makeTempDir();
    jsonl = await openSessionStore({ dir: dir.path });
  });
  afterAll(async () => {
    await jsonl.close();
    await dir.remove();
  });

  it('gives a verified JSONL log’s events as new unfrozen values equal to events, each call its own', async () => {
    await writeSession(jsonl, 'verified');
    await stat(join(dir.path, '.verified', 'verified'));
    const observation = await jsonl.observe('verified');
    const first = observation.copyEvents();
    const second = observation.copyEvents();
    expect(first.every(everyObjectUnfrozen)).toBe(true);
    expect(first).toEqual(observation.events);
    expect(second).toEqual(first);
    expect(second[0]).not.toBe(first[0]);
    expect(noteData(first)['__proto__']).toEqual({ kept: true });
    expect(Object.getPrototypeOf(noteData(first))).toBe(Object.prototype);
  });

  it('never lets a change to the copies reach events, a later copy or a later observation', async () => {
    await writeSession(jsonl, 'changed');
    const observation = await jsonl.observe('changed');
    const copies = observation.copyEvents();
    noteData(copies).nested.list.push('changed');
    copies.push(copies[0] as never);
    expect(observation.events).toHaveLength(copies.length - 1);
    expect(noteData(observation.events).nested.list).toEqual([1, { deep: 'x' }]);
    expect(observation.copyEvents()).toEqual(observation.events);
    expect((await jsonl.observe('changed')).copyEvents()).toEqual(observation.events);
  });

  it('reads a verified log of several megabytes, ASCII and not, the same in copies, windows and events', async () => {
    const session = await jsonl.create({ id: 'chunks', title: 'chunks' });
    for (let index = 0; index < 3000; index++) {
      const text = `${index < 1500 ? 'plain' : 'déjà vu 😀'} ${String(index)} ${'x'.repeat(2000)}`;
      session.append('plugin/note', { text }, { ignorable: true });
    }
    await session.close();
    const observation = await jsonl.observe('chunks');
    expect(observation.copyEvents()).toEqual(observation.events);
    const reopened = await jsonl.open('chunks');
    const windows = [];
    for (let from = 0; from < reopened.nextSeq; from += 700) windows.push(...reopened.eventsFrom(from, from + 700));
    expect(windows).toEqual(observation.events.concat(reopened.eventsFrom(observation.events.length)));
    await reopened.close();
  });

  it('keeps copies of sealed segments each log’s own when several logs are copied in turn, a segment larger than 4 MiB included', async () => {
    // Segments not read yet are parsed from one reused buffer (segment-window.ts): nothing copied may alias it.
    const write = async (id: string, size: number): Promise<void> => {
      const session = await jsonl.create({ id, title: id });
      for (let index = 0; index < 6; index++)
        session.append('plugin/note', { text: `${id} ${String(index)} ${'y'.repeat(size)}` }, { ignorable: true });
      await session.close();
    };
    await write('sealed-a', 400_000);
    await write('sealed-b', 1_500_000);
    await write('sealed-huge', 5_000_000);
    for (const id of ['sealed-a', 'sealed-b', 'sealed-huge']) {
      const header = JSON.parse((await readFile(join(dir.path, `${id}.jsonl`), 'utf8')).split('\n')[0] as string) as {
        segments?: unknown[];
      };
      expect(header.segments?.length ?? 0).toBeGreaterThan(0);
    }
    const first = (await jsonl.observe('sealed-a')).copyEvents();
    const second = (await jsonl.observe('sealed-b')).copyEvents();
    const huge = (await jsonl.observe('sealed-huge')).copyEvents();
    const again = (await jsonl.observe('sealed-a')).copyEvents();
    expect(first).toEqual((await jsonl.observe('sealed-a')).events);
    expect(second).toEqual((await jsonl.observe('sealed-b')).events);
    expect(huge).toEqual((await jsonl.observe('sealed-huge')).events);
    expect(again).toEqual(first);
    expect(
      first.filter((event) => event.type === 'plugin/note').map((event) => (event.data as { text: string }).text.slice(0, 10)),
    ).toEqual(Array.from({ length: 6 }, (_, index) => `sealed-a ${String(index)}`));
  });

  it('copies a live session’s events, leaving the session’s own frozen events untouched', async () => {
    const session = await jsonl.create({ id: 'live', title: 'live' });
    session.append('plugin/note', { nested: { list: [1] } }, { ignorable: true });
    const observation = await jsonl.observe('live');
    expect(observation.live).toBe(true);
    const copies = observation.copyEvents();
    expect(copies.every(everyObjectUnfrozen)).toBe(true);
    expect(copies).toEqual(session.events);
    (copies.at(-1)?.data as { nested: { list: unknown[] } }).nested.list.push(2);
    expect((session.events.at(-1)?.data as { nested: { list: unknown[] } }).nested.list).toEqual([1]);
    await session.close();
  });

  it('copies the events of a memory store’s cold session', async () => {
    const store = createMemoryStore();
    await writeSession(store, 'memory');
    const observation = await store.observe('memory');
    const copies = observation.copyEvents();
    expect(copies.every(everyObjectUnfrozen)).toBe(true);
    expect(copies).toEqual(observation.events);
    expect(Object.isFrozen(observation.events[0])).toBe(true);
    await store.close();
  });

  it('parses a backend’s validated lines anew for each copy, never frozen', () => {
    const lines = ['{"seq":0,"type":"plugin/note","time":1,"data":{"a":[1]},"ignorable":true}\n'];
    const source = validatedLinesSource('lines', lines);
    const copies = source.fresh?.(1) ?? [];
    expect(copies).toEqual([{ seq: 0, type: 'plugin/note', time: 1, data: { a: [1] }, ignorable: true }]);
    expect(everyObjectUnfrozen(copies[0])).toBe(true);
    expect(source.fresh?.(1)[0]).not.toBe(copies[0]);
    expect(Object.isFrozen(source.at(0))).toBe(true);
  });
});
