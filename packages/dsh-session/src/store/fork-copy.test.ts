import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeJsonl, encodeJsonl, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { openSessionStore, SessionError, type SessionStore } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import { arbitraryLog, makeTempDir } from '@dsh/test-utils';
import { storedLogText } from '../__fixtures__/stored-log-text.js';

// Forks of JSONL parents copy the parent's stored lines instead of encoding them again (cold: the
// lines the store just validated; live: the durable bytes of the parent it holds). The child must
// still be exactly the fork seed, as decoded events.

const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 7, id, createdAt: 0, inheritedEventCount: 0 });

/** Up to `most` cuts spread over the log, always including its first and last seq. */
function cutsOf(length: number, most: number): number[] {
  if (length <= most) return Array.from({ length }, (_, seq) => seq);
  const cuts = new Set<number>([0, length - 1]);
  for (let index = 1; cuts.size < most; index += 1) cuts.add(Math.floor((index * (length - 1)) / most));
  return [...cuts].sort((a, b) => a - b);
}

/** A V4 log's text written with extra whitespace: other bytes than `encodeJsonl`, the same events. */
function looselyEncoded(id: string, events: readonly SessionEvent[]): string {
  return (
    [JSON.stringify(header(id)), ...events.map((event) => JSON.stringify(event, null, event.seq % 2 === 0 ? 1 : 0))]
      .map((line) => line.replaceAll('\n', ' '))
      .join('\n') + '\n'
  );
}

describe('fork of a JSONL parent by copying its stored lines', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  let store: SessionStore;
  let parents = 0;
  beforeAll(async () => {
    dir = await makeTempDir();
    store = await openSessionStore({ dir: dir.path });
  });
  afterAll(async () => {
    await store.close();
    await dir.remove();
  });

  /** The stored lines of events 0..count-1 (after the header), as bytes on disk. */
  const storedLines = async (id: string, count: number): Promise<string[]> =>
    (await storedLogText(dir.path, id)).split('\n').slice(1, count + 1);

  const childOf = async (id: string): Promise<{ header: SessionHeader; events: SessionEvent[] }> =>
    decodeJsonl(await storedLogText(dir.path, id));

  it('stores exactly buildForkSeed of the decoded parent for every cut, cold and live, whatever the parent’s bytes', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog(), fc.boolean(), async (log, loose) => {
        const events: SessionEvent[] = log;
        fc.pre(events.length > 0);
        const id = `parent-${String((parents += 1))}`;
        await writeFile(join(dir.path, `${id}.jsonl`), loose ? looselyEncoded(id, events) : encodeJsonl({ header: header(id), events }));
        for (const cut of cutsOf(events.length, 4)) {
          const child = await store.fork(id, { atSeq: cut, id: `${id}-cold-${String(cut)}`, title: 'branch' });
          await child.close();
          const stored = await childOf(child.id);
          const seed = buildForkSeed(events, cut);
          expect(stored.events).toEqual([
            ...seed,
            { seq: seed.length, type: 'session/title', time: stored.events.at(-1)!.time, data: { title: 'branch' } },
          ]);
          expect(stored.header).toMatchObject({ id: child.id, parentSession: id, forkCut: cut, inheritedEventCount: cut + 1 });
          expect(child.events).toEqual(stored.events);
          // Copied, not encoded again: the parent's own bytes (loose or not).
          expect(await storedLines(child.id, cut + 1)).toEqual(await storedLines(id, cut + 1));
        }
        // Live: the parent is open (repaired and marked), its durable lines are copied.
        const parent = await store.open(id);
        try {
          for (const cut of cutsOf(parent.events.length, 4)) {
            const child = await store.fork(id, { atSeq: cut, id: `${id}-live-${String(cut)}` });
            await child.close();
            const stored = await childOf(child.id);
            expect(stored.events).toEqual(buildForkSeed(parent.events, cut));
            expect(await storedLines(child.id, cut + 1)).toEqual(await storedLines(id, cut + 1));
            // The prefix is the parent's own objects, not copies.
            for (let seq = 0; seq <= cut; seq += 1) expect(child.events[seq]).toBe(parent.events[seq]);
          }
          // A live child made by copying is itself forked by copying (its lines ends are its parent's).
          const child = await store.fork(id, { atSeq: Math.floor((parent.events.length - 1) / 2), id: `${id}-mid` });
          try {
            child.append('session/title', { title: 'grown' });
            await child.flush();
            for (const cut of cutsOf(child.events.length, 4)) {
              const grandchild = await store.fork(child.id, { atSeq: cut, id: `${child.id}-${String(cut)}` });
              await grandchild.close();
              expect((await childOf(grandchild.id)).events).toEqual(buildForkSeed(child.events, cut));
              expect(await storedLines(grandchild.id, cut + 1)).toEqual(await storedLines(child.id, cut + 1));
            }
          } finally {
            await child.close();
          }
        } finally {
          await parent.close();
        }
      }),
      { numRuns: 12 },
    );
  });

  it('forks events a live parent has not made durable yet by encoding them', async () => {
    const parent = await store.create({ id: 'pending-parent', title: 'p' });
    parent.append('turn/start', { turn: 1 });
    parent.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    // Not flushed: the fork must still hold the user message.
    const child = await store.fork('pending-parent', { atSeq: parent.events.length - 1, id: 'pending-child' });
    await child.close();
    expect((await childOf('pending-child')).events).toEqual(buildForkSeed(parent.events, parent.events.length - 1));
    await parent.close();
  });

  it('forks a live parent whose file changed length behind its lease from its events, not the file', async () => {
    const parent = await store.create({ id: 'forged-parent', title: 'p' });
    await parent.flush();
    const path = join(dir.path, 'forged-parent.jsonl');
    await writeFile(path, (await readFile(path, 'utf8')).replace('"title":"p"', '"title":"forged"'));
    const child = await store.fork('forged-parent', { atSeq: 0, id: 'forged-child' });
    await child.close();
    expect((await childOf('forged-child')).events).toEqual(buildForkSeed(parent.events, 0));
    expect(child.title).toBe('p');
    await parent.close();
  });

  it('refuses a cold parent whose stored events were tampered with, before or after the cut, creating nothing', async () => {
    const events: SessionEvent[] = [
      { seq: 0, type: 'session/title', time: 1, data: { title: 'a' } },
      { seq: 1, type: 'session/title', time: 2, data: { title: 'b' } },
      { seq: 2, type: 'session/end-seed', time: 3, data: {} },
    ];
    const lines = encodeJsonl({ header: header('tampered'), events }).split('\n');
    for (const [line, forged, code] of [
      [1, '{"seq":0,"type":"session/title","time":1,"data":{"title":7}}', 'INVALID_EVENT'],
      [3, '{"seq":2,"type":"turn/end","time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}', 'INVALID_RELATIONSHIP'],
    ] as const) {
      const copy = [...lines];
      copy[line] = forged;
      await writeFile(join(dir.path, 'tampered.jsonl'), copy.join('\n'));
      const error = await store.fork('tampered', { atSeq: 0, id: 'tampered-child' }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(SessionError.is(error) && error.code).toBe(code);
      expect(await store.has('tampered-child')).toBe(false);
    }
  });
});

describe('seeds that were not validated here', () => {
  it('refuses an observation produced by another store over the same directory', async () => {
    await using dir = await makeTempDir();
    const store = await openSessionStore({ dir: dir.path });
    const other = await openSessionStore({ dir: dir.path });
    try {
      const parent = await store.create({ id: 'observed', title: 'p' });
      await parent.close();
      const foreign = await other.observe('observed');
      const error = await store.fork(foreign, { atSeq: 0, id: 'from-foreign' }).then(
        () => undefined,
        (reason: unknown) => reason,
      );
      expect(SessionError.is(error) && error.code).toBe('INVALID_OBSERVATION');
      expect(await store.has('from-foreign')).toBe(false);
      // The same observation is good in the store that produced it.
      expect((await other.fork(foreign, { atSeq: 0, id: 'from-own' })).header.forkCut).toBe(0);
    } finally {
      await store.close();
      await other.close();
    }
  });

  it('keeps an own "__proto__" key of appended data as a key (it never becomes a prototype)', async () => {
    await using dir = await makeTempDir();
    const store = await openSessionStore({ dir: dir.path });
    try {
      const session = await store.create({ id: 'proto' });
      const data = JSON.parse('{"__proto__":{"x":1},"y":2}') as { [key: string]: number | { x: number } };
      const event = session.append('plugin/note', data, { ignorable: true });
      expect(Object.getPrototypeOf(event.data)).toBe(Object.prototype);
      expect(Object.keys(event.data as object)).toEqual(['__proto__', 'y']);
      await session.close();
      expect((await store.inspect('proto')).events.at(-1)?.data).toEqual(event.data);
    } finally {
      await store.close();
    }
  });
});
