import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { createMemoryStore, SessionError, type SessionBackend, type SessionStore } from 'dsh-session';
import { arbitraryLogWithSeq } from '@dsh/test-utils';
import { createMemoryBackend } from './memory-backend.js';
import { validatedLinesSource } from './validated-lines.js';

// A backend may hand back its own validated lines unparsed (PostgreSQL's sealed rows); the store then
// parses only what it reads. Every answer must equal the one it gives for the same log read as records.

const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 5, id, createdAt: 0, inheritedEventCount: 0 });

/** A memory backend whose reads come back as `validated-lines` (with or without a prefix reference). */
function linesBackend(withSource: boolean): SessionBackend {
  const backend = createMemoryBackend();
  return {
    ...backend,
    async read(id) {
      const log = await backend.read(id);
      if (log.kind !== 'records') throw new Error(`expected records from the memory backend, received ${log.kind}`);
      // The array runs past this read, as a backend sharing one growing array may hand it out: only `count` are this read's.
      const lines = [...log.events.map((event) => serializeEvent(event)), '{"seq":-1,"type":"not/this-read","time":0,"data":{}}\n'];
      return { kind: 'validated-lines', header: log.header, lines, count: log.events.length, ...(withSource ? { source: `${id}:${String(log.events.length)}` } : {}) };
    },
  };
}

async function plant(store: SessionStore, id: string, events: readonly SessionEvent[]): Promise<void> {
  await store.import({ header: header(id), events });
}

describe('validated lines read back unparsed', () => {
  it('observe, fork, list and open give what a records read gives, over generated logs and cuts', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryLogWithSeq(), fc.boolean(), async ({ events, seq }, withSource) => {
        const id = `s${String(++round)}`;
        const plain = createMemoryStore({ now: () => 7 });
        const lines = createMemoryStore({ backend: linesBackend(withSource), now: () => 7 });
        try {
          await plant(plain, id, events);
          await plant(lines, id, events);
          const [a, b] = [await plain.observe(id), await lines.observe(id)];
          expect(b.needsRepair).toBe(a.needsRepair);
          expect(b.header).toEqual(a.header);
          const [childA, childB] = [await plain.fork(id, { atSeq: seq, id: 'kid' }), await lines.fork(id, { atSeq: seq, id: 'kid' })];
          expect(childB.events).toEqual(childA.events);
          await childA.close();
          await childB.close();
          const [latestA, latestB] = [await plain.fork(id, { atSeq: 'latest-closed-turn', id: 'kid2' }), await lines.fork(id, { atSeq: 'latest-closed-turn', id: 'kid2' })];
          expect(latestB.header.forkCut).toBe(latestA.header.forkCut);
          await latestA.close();
          await latestB.close();
          expect(await lines.list()).toEqual(await plain.list());
          expect(b.events).toEqual(a.events);
          const [openA, openB] = [await plain.open(id), await lines.open(id)];
          expect(openB.events).toEqual(openA.events);
          await openA.close();
          await openB.close();
        } finally {
          await plain.close();
          await lines.close();
        }
      }),
      { numRuns: 60 },
    );
  });

  it('finds a type by the envelope only: the same text inside an event’s data is not taken for it', () => {
    const events: SessionEvent[] = [
      { seq: 0, type: 'session/title', time: 1, data: { title: 'real' } },
      { seq: 1, type: 'session/config', time: 2, data: { model: ',"type":"session/title",' } },
      { seq: 2, type: 'input/queued', time: 3, data: { inputId: 'i', message: { id: 'm', role: 'user', content: [{ type: 'text', text: '{"seq":2,"type":"session/title","time":3' }] } } },
    ];
    const source = validatedLinesSource('x', [...events.map((event) => serializeEvent(event)), serializeEvent({ seq: 3, type: 'session/title', time: 4, data: { title: 'later' } })], 3);
    expect(source.findLast(['session/title'])).toBe(0);
    expect(source.findLast(['session/config', 'session/title'])).toBe(1);
    expect(source.findLast(['turn/start'])).toBe(-1);
    expect(source.findLast(['session/config'], 1)).toBe(-1);
    expect(source.slice(3)).toEqual(events);
    expect(Object.isFrozen(source.at(2).data)).toBe(true);
  });

  it('a line that is not the event of its seq is CORRUPT, naming the seq, when it is read', () => {
    const good = serializeEvent({ seq: 0, type: 'session/title', time: 1, data: { title: 't' } });
    const source = validatedLinesSource('x', [good, good]);
    expect(source.at(0).seq).toBe(0);
    let error: unknown;
    try {
      source.at(1);
    } catch (caught) {
      error = caught;
    }
    expect(SessionError.is(error) && error.code).toBe('CORRUPT');
    expect((error as Error).message).toMatch(/expected the event at seq 1/);
    expect(() => validatedLinesSource('x', ['{"seq":0,"type":"x"']).at(0)).toThrow(/seq 0/);
  });
});
