import { describe, expect, it } from 'vitest';
import { serializeEvent } from 'dsh-codec';
import { openPostgresStore } from 'dsh-postgres';
import { SessionError } from 'dsh-session';
import { buildForkSeed } from 'dsh-session/fork';
import pg from 'pg';
import { postgresTestUrl } from '@dsh/test-utils';
import { readerSettings, testSchemas } from '../__fixtures__/test-schemas.js';
import { shapeOf } from '../__fixtures__/read-shape.js';
import { readStoredLog } from './read-stored-log.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('reading a log back: sealed rows skip validation, anything else is validated in full', () => {
  const made = testSchemas(connectionString);

  /** A fresh schema, a store on it, a session `titled` of 1 + 40 events (its marker and titles t0…t39), and a raw reader. */
  async function fixture(prefix: string) {
    const name = made.schema(prefix);
    const store = made.keep(await openPostgresStore({ connectionString, schema: name, hostId: 'one' }));
    const session = await store.create({ id: 'titled' });
    for (let index = 0; index < 40; index++) session.append('session/title', { title: `t${String(index)}` });
    await session.close();
    const settings = readerSettings(made.admin, name);
    const q = (sql: string): Promise<pg.QueryResult> => made.query(name, sql);
    return {
      name,
      store,
      read: (id: string) => readStoredLog(settings, id).then(shapeOf),
      readRecords: (id: string) => readStoredLog(settings, id, 'records').then(shapeOf),
      q,
    };
  }

  async function failure(action: Promise<unknown>): Promise<SessionError> {
    try {
      await action;
    } catch (error) {
      if (SessionError.is(error)) return error;
      throw error;
    }
    throw new Error('expected a SessionError');
  }

  it('a log only dsh-postgres wrote reads back as validated lines, unparsed, each the line of the event the store returns', async () => {
    const { store, read } = await fixture('sealed');
    const log = await read('titled');
    expect(log).toMatchObject({ kind: 'validated-lines', source: expect.stringMatching(/^\d+:41$/) as unknown });
    const { lines } = log as Extract<typeof log, { kind: 'validated-lines' }>;
    expect(lines).toEqual((await store.inspect('titled')).events.map((event) => serializeEvent(event)));
    expect(await read('nobody')).toBeUndefined();
  });

  it('open’s read (records) parses the same sealed rows as they arrive: validated records equal to the events the store returns', async () => {
    const { store, readRecords, q } = await fixture('sealed_records');
    const log = await readRecords('titled');
    expect(log).toMatchObject({ kind: 'records', validated: true, source: expect.stringMatching(/^\d+:41$/) as unknown });
    expect((log as Extract<typeof log, { kind: 'records' }>).events).toEqual((await store.inspect('titled')).events);
    // A broken seal sends it to the validating text read as well.
    await q(`UPDATE S.events SET checksum = checksum + 1 WHERE seq = 3`);
    expect((await readRecords('titled'))?.kind).toBe('jsonl');
    expect(await readRecords('nobody')).toBeUndefined();
  });

  it('a sealed row whose line names another seq is not taken as validated (read as text, refused by the codec)', async () => {
    const { store, read, q } = await fixture('moved_line');
    // Seq 5's row holds seq 6's line, sealed for its segment: the seal matches, the place does not.
    await q(
      `UPDATE S.events e SET body = o.body, checksum = o.checksum FROM S.events o WHERE e.segment = o.segment AND e.seq = 5 AND o.seq = 6`,
    );
    expect((await read('titled'))?.kind).toBe('jsonl');
    expect((await failure(store.inspect('titled'))).code).toBe('INVALID_EVENT');
  });

  it('a row edited behind dsh (its seal no longer matches) is read as text and validated: an invalid edit is refused by open, naming the line', async () => {
    const { store, read, q } = await fixture('edited');
    await q(`UPDATE S.events SET body = replace(body, '"type":"session/title"', '"type":"bogus/type"') WHERE seq = 7`);
    expect((await read('titled'))?.kind).toBe('jsonl');
    const error = await failure(store.open('titled'));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(/line 9\b.*bogus\/type/s);
  });

  it('a valid edit behind dsh is read as text too, validated, and what open returns', async () => {
    const { store, read, q } = await fixture('valid_edit');
    await q(`UPDATE S.events SET body = replace(body, '"title":"t3"', '"title":"edited"') WHERE seq = 4`);
    expect((await read('titled'))?.kind).toBe('jsonl');
    const session = await store.open('titled');
    expect(session.events[4]?.data).toEqual({ title: 'edited' });
    await session.close();
  });

  it('rows without a seal (stored before schema step 3, or inserted by hand) are validated in full', async () => {
    const { store, read, q } = await fixture('unsealed');
    await q(`UPDATE S.events SET checksum = NULL WHERE seq = 40`);
    expect((await read('titled'))?.kind).toBe('jsonl');
    // Sealed again, it reads as validated lines; a missing row (a hole in the seqs) never does.
    await q(`UPDATE S.events SET checksum = hashtextextended(body, segment)`);
    expect((await read('titled'))?.kind).toBe('validated-lines');
    await q(`DELETE FROM S.events WHERE seq = 20`);
    expect((await read('titled'))?.kind).toBe('jsonl');
    const error = await failure(store.open('titled'));
    expect(error.code).toBe('INVALID_EVENT');
    expect(error.message).toMatch(/seq 20/);
  });

  it('a sealed line copied from another session’s segment does not pass as sealed there', async () => {
    const { store, read, q } = await fixture('copied');
    await (await store.create({ id: 'other', title: 't3' })).close();
    // "other"'s line at seq 1, with its seal, replaces "titled"'s line at seq 1: same seq, sealed — for the other segment.
    await q(`UPDATE S.events e SET body = o.body, checksum = o.checksum
               FROM S.events o JOIN S.sessions so ON so.segment = o.segment AND so.id = 'other',
                    S.sessions st
              WHERE st.id = 'titled' AND e.segment = st.segment AND e.seq = 1 AND o.seq = 1`);
    expect((await read('titled'))?.kind).toBe('jsonl');
  });

  it('a read the server fails is STORAGE_ERROR, and the store reads again once the table is back', async () => {
    const { store, q } = await fixture('failing');
    await q(`ALTER TABLE S.events RENAME TO events_away`);
    const error = await failure(store.inspect('titled'));
    expect(error.code).toBe('STORAGE_ERROR');
    expect(error.message).toMatch(/events/);
    await q(`ALTER TABLE S.events_away RENAME TO events`);
    expect((await store.inspect('titled')).events).toHaveLength(41);
  });

  it('a header that is not the canonical V7 line is decoded by the codec instead', async () => {
    const { store, read, q } = await fixture('header');
    await q(`UPDATE S.sessions SET header = replace(header, '"version":7', '"version":4')`);
    expect((await read('titled'))?.kind).toBe('jsonl');
    // The codec reads it as V4 and the store migrates it on open.
    const session = await store.open('titled');
    expect(session.formatVersion).toBe(4);
    await session.close();
    expect((await read('titled'))?.kind).toBe('validated-lines');
  });

  it('a fork from another store (a cold validated-lines read) refers to the parent’s segment: no inherited row is copied, and the child reads back sealed', async () => {
    const { name, store, read, q } = await fixture('cold_fork');
    const other = await openPostgresStore({ connectionString, schema: name, hostId: 'two' });
    made.keep(other);
    const live = await store.open('titled');
    const child = await other.fork('titled', { atSeq: 30, id: 'kid' });
    await child.close();
    const { rows } = await q(`SELECT e.seq FROM S.events e JOIN S.sessions s ON s.segment = e.segment WHERE s.id = 'kid' ORDER BY e.seq`);
    expect(rows.map((row: { seq: number }) => row.seq)).toEqual([31]);
    const log = await read('kid');
    expect(log?.kind).toBe('validated-lines');
    expect((log as Extract<typeof log, { kind: 'validated-lines' }>).lines).toEqual(
      buildForkSeed(live.events.slice(0, 41), 30).map((event) => serializeEvent(event)),
    );
    await live.close();
  });
});
