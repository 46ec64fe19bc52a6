/**
 * SPEC §14 "a host observing a session that another host writes sees its new events within one
 * second": two stores on one database (each its own pool and LISTEN connection, as two hosts have),
 * one writing a session, the other's host watching it through `host.watch` (the feed behind SSE).
 */
import type { SessionEvent } from 'dsh-codec';
import { createHost } from 'dsh-host';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import pg from 'pg';
import { type LogJsonRow, logRow, postgresTestUrl, uniqueSchemaName, waitFor } from '@dsh/test-utils';
import { afterAll, describe, expect, it } from 'vitest';
import {} from './support.js';

const url = postgresTestUrl();
const connectionString = url ?? '';
const schema = uniqueSchemaName('live_hosts');
const stores: SessionStore[] = [];

async function openStore(hostId: string): Promise<SessionStore> {
  const store = await openPostgresStore({ connectionString, schema, hostId, leaseMs: 2_000 });
  stores.push(store);
  return store;
}

const turn = (n: number, text: string): LogJsonRow[] => [
  logRow.turnStart(n),
  logRow.user(`u${String(n)}`, text),
  logRow.stepStart(n, 1),
  logRow.assistant(n, 1, `reply ${String(n)}`),
  logRow.stepEnd(n, 1),
  logRow.turnEnd(n),
];

/** The seqs 0…count-1: what a watcher must have seen, once each and in order. */
const seqs = (count: number) => Array.from({ length: count }, (_, index) => index);

describe.skipIf(url === undefined)('§14 live across hosts', () => {
  afterAll(async () => {
    await Promise.allSettled(stores.map((store) => store.close()));
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it(
    'a host watching a session another host writes gets each committed batch within one second, each event once, in order',
    { timeout: 60_000 },
    async () => {
      const writerStore = await openStore('host-a');
      const host = createHost({ store: await openStore('host-b') });
      const session = await writerStore.create({ id: 'watched' });
      for (const [type, data] of turn(1, 'before the watch')) session.append(type, data);
      await session.flush();
      const seen: { event: SessionEvent; at: number }[] = [];
      const watch = await host.watch('watched', 0, (event) => seen.push({ event, at: Date.now() }));
      // The stored events come first, before any new one.
      expect(seen.map((item) => item.event.seq)).toEqual(seqs(session.events.length));
      for (let round = 2; round <= 4; round++) {
        for (const [type, data] of turn(round, `round ${String(round)}`)) session.append(type, data);
        await session.flush();
        const committedAt = Date.now();
        const last = session.events.length - 1;
        await waitFor(`seq ${String(last)} on the other host`, () => seen.some((item) => item.event.seq === last), 5_000);
        const arrived = seen.filter((item) => item.event.seq > last - 6);
        for (const item of arrived) expect(item.at - committedAt).toBeLessThan(1_000);
      }
      watch.close();
      expect(seen.map((item) => item.event)).toEqual(session.events);
      await session.close();
      await host.close();
    },
  );

  it('no gap and no duplicate when the watching host later opens the session itself and writes it', { timeout: 60_000 }, async () => {
    const writerStore = await openStore('host-a');
    const host = createHost({ store: await openStore('host-b') });
    const session = await writerStore.create({ id: 'handed-over' });
    const seen: SessionEvent[] = [];
    const watch = await host.watch('handed-over', 0, (event) => seen.push(event));
    for (const [type, data] of turn(1, 'from a')) session.append(type, data);
    // An open tail: the other host repairs it when it opens the session.
    for (const [type, data] of [
      logRow.turnStart(2),
      logRow.user('u2', 'cut off'),
      logRow.stepStart(2, 1),
      logRow.assistant(2, 1, '', ['c1']),
      logRow.call(2, 1, 'c1'),
    ]) {
      session.append(type, data);
    }
    await session.flush();
    await session.close();
    // Open right away, before the notification of the last commit may have arrived: this host's own
    // repair events must wait for the stored ones below them.
    await host.open('handed-over');
    await host.rename('handed-over', 'opened by b');
    const stored = (await host.observe('handed-over')).events;
    await waitFor('every stored event on the watch', () => seen.length >= stored.length, 5_000);
    watch.close();
    expect(seen.map((event) => event.seq)).toEqual(seqs(stored.length));
    expect(seen).toEqual(stored);
    expect(stored.some((event) => event.type === 'turn/end' && JSON.stringify(event.data).includes('interrupted'))).toBe(true);
    await host.close();
  });

  it('a watch from a later seq (an SSE reconnect) gets only what follows it', { timeout: 60_000 }, async () => {
    const writerStore = await openStore('host-a');
    const host = createHost({ store: await openStore('host-b') });
    const session = await writerStore.create({ id: 'resumed' });
    for (const [type, data] of turn(1, 'first')) session.append(type, data);
    await session.flush();
    const from = session.events.length;
    const seen: SessionEvent[] = [];
    const watch = await host.watch('resumed', from, (event) => seen.push(event));
    expect(seen).toEqual([]);
    for (const [type, data] of turn(2, 'second')) session.append(type, data);
    await session.flush();
    await waitFor('the second turn', () => seen.length >= 6, 5_000);
    watch.close();
    expect(seen).toEqual(session.events.slice(from));
    await session.close();
    await host.close();
  });
});
