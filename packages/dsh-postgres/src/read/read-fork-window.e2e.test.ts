import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SessionEvent, SessionHeader } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { createMemoryStore, LATEST_CLOSED_TURN, type SessionStore } from 'dsh-session';
import { arbitraryLogWithSeq, postgresTestUrl } from '@dsh/test-utils';
import { countingPool } from '../__fixtures__/counting-pool.js';
import { readerSettings, testSchemas } from '../__fixtures__/test-schemas.js';
import { readForkWindow } from './read-fork-window.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const header = (id: string): SessionHeader => ({ format: 'dsh-session', version: 7, id, createdAt: 3, inheritedEventCount: 0 });

/** A session of `turns` closed turns of 18 titles each, the last turn left open. */
async function longSession(store: SessionStore, id: string, turns: number): Promise<readonly SessionEvent[]> {
  const session = await store.create({ id, title: 'first', config: { cwd: '/work' } });
  for (let turn = 1; turn <= turns; turn++) {
    session.append('turn/start', { turn });
    for (let index = 0; index < 18; index++) session.append('session/title', { title: `t${String(turn)}.${String(index)}` });
    if (turn < turns) session.append('turn/end', { turn, reason: { kind: 'completed' } });
  }
  await session.close();
  return session.events;
}

describe.skipIf(url === undefined)('a fork by id on PostgreSQL reads a window of the parent and loads the rest on first read', () => {
  const made = testSchemas(connectionString);

  it('forks generated logs at every kind of cut into the child a store that reads every event makes (closers included)', async () => {
    const schema = made.schema('window_equal');
    const writer = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'writer', now: () => 9 }));
    // A store that never read the parents (every fork by id is cold), and the memory store as the reference.
    const cold = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'cold', readCacheBytes: 0, now: () => 9 }));
    const settings = readerSettings(made.admin, schema);
    let round = 0;
    await fc.assert(
      fc.asyncProperty(arbitraryLogWithSeq(), fc.boolean(), async ({ events, seq }, omitted) => {
        const id = `w${String(++round)}`;
        await writer.import({ header: header(id), events });
        const memory = createMemoryStore({ now: () => 9 });
        try {
          await memory.import({ header: header(id), events });
          const atSeq = omitted ? LATEST_CLOSED_TURN : seq;
          // The fork below reads a window (not the whole parent, which would pass trivially).
          expect(await readForkWindow(settings, { connectionString }, id, atSeq)).toBeDefined();
          const options = { atSeq, id: `${id}-kid`, configPatch: { model: 'm' } } as const;
          const child = await cold.fork(id, options);
          const twin = await memory.fork(id, options);
          expect(child.header).toEqual(twin.header);
          expect(child.events).toEqual(twin.events);
          await child.close();
          await twin.close();
          // Read back by a store that reads every row: what was stored is the same child.
          expect((await writer.inspect(`${id}-kid`)).events).toEqual(twin.events);
        } finally {
          await memory.close();
        }
      }),
      { numRuns: 20 },
    );
  });

  it('transfers the landmark rows and the turns around the cut, not the log; the rest loads once, equal to a whole read', async () => {
    const schema = made.schema('window_rows');
    const writer = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'writer' }));
    const events = await longSession(writer, 'long', 100);
    const counted = countingPool(connectionString);
    made.keep(counted.pool);
    const settings = readerSettings(counted.pool, schema);
    const before = counted.rows();
    const read = await readForkWindow(settings, { connectionString }, 'long', 1_000);
    expect(read).toBeDefined();
    // The cut's turn (from its start to the cut) and the latest turn (20 rows), the landmarks among them and the
    // latest of each type before them, and the turn seqs: not the 2,000 rows, nor the 2,000 landmark rows.
    const transferred = counted.rows() - before;
    expect(transferred).toBeLessThan(60);
    const observed = read?.log.observe('long');
    expect(observed?.needsRepair).toBe(true);
    const source = observed?.source;
    expect(source?.at(1_000)).toEqual(events[1_000]);
    // Nothing more was read for the cut; an event outside the window loads every line (on another connection).
    expect(counted.rows()).toBe(before + transferred);
    expect(source?.slice(events.length)).toEqual(events);
    expect(counted.rows()).toBe(before + transferred);
  });

  it('gives the child its inherited events after the parent was deleted, and refuses a parent gone before the child referred to it', async () => {
    const schema = made.schema('window_delete');
    const writer = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'writer' }));
    const events = await longSession(writer, 'parent', 20);
    const cold = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'cold', readCacheBytes: 0 }));
    const child = await cold.fork('parent', { atSeq: 100, id: 'kid' });
    await child.close();
    await writer.delete('parent');
    expect(child.events.slice(0, 101)).toEqual(events.slice(0, 101));
    expect((await writer.inspect('kid')).events).toEqual(child.events);

    await longSession(writer, 'gone', 5);
    const read = await readForkWindow(readerSettings(made.admin, schema), { connectionString }, 'gone', 50);
    await writer.delete('gone');
    expect(() => read?.log.observe('gone').source.slice(60)).toThrow(expect.objectContaining({ code: 'SESSION_NOT_FOUND' }) as Error);
  });
});
