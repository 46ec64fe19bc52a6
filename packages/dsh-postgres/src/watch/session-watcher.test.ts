import { afterAll, describe, expect, it } from 'vitest';
import type { SessionEvent } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import pg from 'pg';
import { postgresTestUrl, uniqueSchemaName } from '@dsh/test-utils';

const url = postgresTestUrl();
const connectionString = url ?? '';

/** Resolves once `events` holds `count` events. */
function until(events: SessionEvent[], count: number): Promise<void> {
  return new Promise<void>((resolve) => {
    const check = (): void => {
      if (events.length >= count) resolve();
      else setImmediate(check);
    };
    check();
  });
}

describe.skipIf(url === undefined)('store.watch: live events across hosts through LISTEN/NOTIFY', () => {
  const schema = uniqueSchemaName('watch');
  afterAll(async () => {
    const admin = new pg.Client({ connectionString });
    await admin.connect();
    await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('a store watching a session another store writes gets the stored events, then every committed batch, in order, once', async () => {
    const writer = await openPostgresStore({ connectionString, schema, hostId: 'host-a' });
    const observer = await openPostgresStore({ connectionString, schema, hostId: 'host-b' });
    const session = await writer.create({ id: 'watched', title: 'first' });
    await session.flush();
    const seen: SessionEvent[] = [];
    const stop = await observer.watch!('watched', 0, (events) => seen.push(...events));
    expect(seen).toEqual(session.events);
    for (let round = 0; round < 5; round++) {
      session.append('session/title', { title: `round ${String(round)}` });
      await session.flush();
      await until(seen, session.events.length);
    }
    expect(seen).toEqual(session.events);
    expect(seen.map((event) => event.seq)).toEqual(session.events.map((_, index) => index));
    // A watch from a later seq starts there; a stopped watch gets nothing more.
    const tail: SessionEvent[] = [];
    const stopTail = await observer.watch!('watched', 3, (events) => tail.push(...events));
    expect(tail).toEqual(session.events.slice(3));
    stop();
    session.append('session/title', { title: 'after stop' });
    await session.flush();
    await until(tail, session.events.length - 3);
    expect(seen).toHaveLength(session.events.length - 1);
    stopTail();
    await session.close();
    await writer.close();
    await observer.close();
  });

  it('watching an invalid id is refused before SQL', async () => {
    const store = await openPostgresStore({ connectionString, schema });
    await expect(store.watch!('../x', 0, () => undefined)).rejects.toMatchObject({ code: 'INVALID_SESSION_ID' });
    await store.close();
  });
});
