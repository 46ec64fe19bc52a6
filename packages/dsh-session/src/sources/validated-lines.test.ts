import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { serializeEvent, type SessionEvent, type SessionHeader } from 'dsh-codec';
import { createMemoryStore, SessionError, type SessionBackend, type SessionStore } from 'dsh-session';
import {
  asSessionBackend,
  fastBackendOf,
  provenanceKind,
  ValidatedLinesLog,
  type StoredRead,
  type StoredSummary,
} from 'dsh-session/internal';
import { arbitraryLogWithSeq } from '@dsh/test-utils';
import { createMemoryBackend } from '../memory/memory-backend.js';
import { sparseLinesSource, validatedLinesSource } from './validated-lines.js';

// A backend may hand back its own validated lines unparsed (PostgreSQL's sealed rows); the store then
// parses only what it reads. Every answer must equal the one it gives for the same log read as records.

const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 7, id, createdAt: 0, inheritedEventCount: 0 });

/** A provenance of this test's backend (which no other backend reads). */
const LINES_PROVENANCE = provenanceKind<{ id: string; count: number }>();

/** A memory backend whose reads — with and without the lease — come back as validated lines (with or without a provenance). */
function linesBackend(withSource: boolean): SessionBackend {
  const backend = fastBackendOf(createMemoryBackend());
  const asLines = (id: string, read: StoredRead): StoredRead => {
    const log = read.log.storedLog(id);
    // The array runs past this read, as a backend sharing one growing array may hand it out: only `count` are this read's.
    const lines = [...log.events.map((event) => serializeEvent(event)), '{"seq":-1,"type":"not/this-read","time":0,"data":{}}\n'];
    return {
      log: new ValidatedLinesLog(log.header, lines, log.events.length),
      ...(withSource ? { provenance: LINES_PROVENANCE.mint({ id, count: log.events.length }) } : {}),
    };
  };
  return asSessionBackend({
    ...backend,
    read: async (id) => asLines(id, await backend.read(id)),
    async acquire(id) {
      const writer = await backend.acquire(id);
      return {
        read: async () => asLines(id, await writer.read()),
        append: (expectedNextSeq, events) => writer.append(expectedNextSeq, events),
        replace: (header, events) => writer.replace(header, events),
        discardTornTail: (line) => writer.discardTornTail(line),
        release: () => writer.release(),
      };
    },
  });
}

/** A memory backend that also answers `readSummary` with the parts a backend may read by index (as dsh-postgres does). */
function partsBackend(): SessionBackend {
  const backend = fastBackendOf(createMemoryBackend());
  return asSessionBackend({
    ...backend,
    async readSummary(id): Promise<StoredSummary> {
      const log = (await backend.read(id)).log.storedLog(id);
      const { events } = log;
      const latest = (test: (event: SessionEvent) => boolean): number => events.findLastIndex(test);
      const lines = new Map<number, string>();
      const title = latest((event) => event.type === 'session/title');
      const config = latest((event) => event.type === 'session/config' && (event.data as { cwd?: string }).cwd !== undefined);
      for (const seq of [title, config, events.length - 1]) if (seq >= 0) lines.set(seq, serializeEvent(events[seq] as SessionEvent));
      return {
        header: log.header,
        count: events.length,
        lines,
        latestTurnStart: latest((event) => event.type === 'turn/start'),
        latestTurnEnd: latest((event) => event.type === 'turn/end'),
      };
    },
  });
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
          const [latestA, latestB] = [
            await plain.fork(id, { atSeq: 'latest-closed-turn', id: 'kid2' }),
            await lines.fork(id, { atSeq: 'latest-closed-turn', id: 'kid2' }),
          ];
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

  it('list() from a backend’s summary parts equals list() from whole reads, over generated logs and forks', async () => {
    let round = 0;
    await fc.assert(
      fc.asyncProperty(
        arbitraryLogWithSeq(),
        fc.constantFrom(undefined, { model: 'm' }, { cwd: '/kid' }),
        async ({ events, seq }, config) => {
          const id = `p${String(++round)}`;
          const plain = createMemoryStore({ now: () => 7 });
          const parts = createMemoryStore({ backend: partsBackend(), now: () => 7 });
          try {
            for (const store of [plain, parts]) {
              await plant(store, id, events);
              await (await store.fork(id, { atSeq: seq, id: 'kid', ...(config === undefined ? {} : { config }) })).close();
            }
            expect(await parts.list()).toEqual(await plain.list());
          } finally {
            await plain.close();
            await parts.close();
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('a summary’s sparse source reads only the parts it was given and refuses the rest', () => {
    const title = serializeEvent({ seq: 3, type: 'session/title', time: 1, data: { title: 't' } });
    const last = serializeEvent({ seq: 9, type: 'turn/start', time: 2, data: { turn: 1 } });
    const source = sparseLinesSource(
      'x',
      10,
      new Map([
        [3, title],
        [9, last],
      ]),
      ['session/title', 'session/config'],
    );
    expect(source.findLast(['session/title'])).toBe(3);
    expect(source.findLast(['session/title'], 3)).toBe(-1);
    expect(source.findLast(['session/config'])).toBe(-1);
    expect(source.at(9).type).toBe('turn/start');
    expect(() => source.at(5)).toThrow(/event 5 was not read/);
    expect(() => source.findLast(['turn/start'])).toThrow(/turn\/start events were not read/);
    expect(() => source.slice(10)).toThrow(/only a summary/);
  });

  it('finds a type by the envelope only: the same text inside an event’s data is not taken for it', () => {
    const events: SessionEvent[] = [
      { seq: 0, type: 'session/title', time: 1, data: { title: 'real' } },
      { seq: 1, type: 'session/config', time: 2, data: { model: ',"type":"session/title",' } },
      {
        seq: 2,
        type: 'input/queued',
        time: 3,
        data: {
          inputId: 'i',
          message: { id: 'm', role: 'user', content: [{ type: 'text', text: '{"seq":2,"type":"session/title","time":3' }] },
        },
      },
    ];
    const source = validatedLinesSource(
      'x',
      [
        ...events.map((event) => serializeEvent(event)),
        serializeEvent({ seq: 3, type: 'session/title', time: 4, data: { title: 'later' } }),
      ],
      3,
    );
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
