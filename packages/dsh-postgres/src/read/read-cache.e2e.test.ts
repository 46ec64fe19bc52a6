import { describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import { postgresTestUrl } from '@dsh/test-utils';
import { countingPool } from '../__fixtures__/counting-pool.js';
import { testSchemas } from '../__fixtures__/test-schemas.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('a store reads a session it read before by the rows written since', () => {
  const made = testSchemas(connectionString);

  async function hosts(prefix: string, readCacheBytes?: number) {
    const schema = made.schema(prefix);
    const writer = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'writer' }));
    const counted = countingPool(connectionString);
    made.keep(counted.pool);
    const reader = made.keep(
      await openPostgresStore({
        pool: counted.pool,
        schema,
        hostId: 'reader',
        ...(readCacheBytes === undefined ? {} : { readCacheBytes }),
      }),
    );
    const fresh = made.keep(await openPostgresStore({ connectionString, schema, hostId: 'fresh', readCacheBytes: 0 }));
    return { schema, writer, reader, fresh, rows: counted.streamedRows };
  }

  it('observes, lists and forks a growing session another host writes, transferring only new rows, with what a whole read gives', async () => {
    const { writer, reader, fresh, rows } = await hosts('cache_grow');
    const live = await writer.create({ id: 'grow', title: 't0' });
    for (let index = 1; index <= 30; index++) live.append('session/title', { title: `t${String(index)}` });
    await live.flush();
    const before = rows();
    expect((await reader.observe('grow')).events).toHaveLength(32);
    // The header row and every event row.
    expect(rows() - before).toBe(33);
    live.append('turn/start', { turn: 1 });
    live.append('user/message', { message: { id: 'u1', role: 'user', content: [{ type: 'text', text: 'hi' }] } });
    await live.flush();
    const again = rows();
    const observed = await reader.observe('grow');
    // The header row and the two new rows only.
    expect(rows() - again).toBe(3);
    expect(observed.events).toEqual((await fresh.observe('grow')).events);
    expect(observed.needsRepair).toBe(true);
    expect(await reader.list()).toEqual(await fresh.list());
    const child = await reader.fork('grow', { atSeq: 32, id: 'grow-kid' });
    const twin = await fresh.fork('grow', { atSeq: 32, id: 'grow-twin' });
    expect(child.events.map(({ time: _time, ...rest }) => rest)).toEqual(twin.events.map(({ time: _time, ...rest }) => rest));
    await child.close();
    await twin.close();
    await live.close();
  });

  it('reads racing each other on a grown session extend the kept lines once: every read, then and later, equals a whole read', async () => {
    const { writer, reader, fresh } = await hosts('cache_race');
    const live = await writer.create({ id: 'race', title: 't0' });
    await live.flush();
    await reader.observe('race');
    for (let round = 1; round <= 5; round++) {
      for (let index = 0; index < round; index++) live.append('session/title', { title: `r${String(round)}-${String(index)}` });
      await live.flush();
      const reads = await Promise.all([reader.observe('race'), reader.observe('race'), reader.inspect('race')]);
      const whole = (await fresh.observe('race')).events;
      for (const read of reads) expect(read.events).toEqual(whole);
    }
    expect((await reader.observe('race')).events).toEqual((await fresh.observe('race')).events);
    await live.close();
  });

  it('reads whole again when the session was rewritten or deleted and created anew under the same id', async () => {
    const { writer, reader, rows } = await hosts('cache_renew');
    await (await writer.create({ id: 'renew', title: 'first' })).close();
    expect((await reader.observe('renew')).events.map((event) => event.data)).toContainEqual({ title: 'first' });
    await writer.delete('renew');
    await expect(reader.observe('renew')).rejects.toMatchObject({ code: 'SESSION_NOT_FOUND' });
    const second = await writer.create({ id: 'renew', title: 'second' });
    second.append('session/title', { title: 'third' });
    await second.close();
    const before = rows();
    const observed = await reader.observe('renew');
    expect(rows() - before).toBe(1 + observed.events.length);
    expect(observed.events.map((event) => event.data)).not.toContainEqual({ title: 'first' });
    expect(observed.events.at(-1)?.data).toEqual({ title: 'third' });
  });

  it('a header or a new row changed behind dsh after the lines were kept is seen: the session is read whole and validated again', async () => {
    const { schema, writer, reader } = await hosts('cache_behind');
    const live = await writer.create({ id: 'behind', title: 't0' });
    live.append('session/title', { title: 't1' });
    await live.close();
    expect((await reader.observe('behind')).formatVersion).toBe(7);
    const { admin } = made;
    // The header as an older dsh wrote it: the kept lines were read under another header line.
    await admin.query(`UPDATE "${schema}".sessions SET header = replace(header, '"version":7', '"version":4') WHERE id = 'behind'`);
    const migrated = await reader.observe('behind');
    expect(migrated.formatVersion).toBe(4);
    expect(migrated.events.at(-1)?.data).toEqual({ title: 't1' });
    // Back to V7 and kept again; then a row appended by hand (unsealed): read whole, and refused as invalid.
    await admin.query(`UPDATE "${schema}".sessions SET header = replace(header, '"version":4', '"version":7') WHERE id = 'behind'`);
    await reader.observe('behind');
    await admin.query(
      `INSERT INTO "${schema}".events (segment, seq, body) SELECT segment, next_seq, '{"seq":' || next_seq || ',"type":"turn/end","time":1,"data":{}}' || chr(10) FROM "${schema}".sessions WHERE id = 'behind'`,
    );
    await admin.query(`UPDATE "${schema}".sessions SET next_seq = next_seq + 1 WHERE id = 'behind'`);
    await expect(reader.observe('behind')).rejects.toMatchObject({ code: expect.stringMatching(/^INVALID_/) as unknown });
  });

  it('keeps nothing with readCacheBytes 0, and refuses a negative bound', async () => {
    const { writer, reader, rows } = await hosts('cache_off', 0);
    await (await writer.create({ id: 'off', title: 't' })).close();
    await reader.observe('off');
    const before = rows();
    const { events } = await reader.observe('off');
    expect(rows() - before).toBe(1 + events.length);
    await expect(openPostgresStore({ connectionString, schema: made.schema('cache_bad'), readCacheBytes: -1 })).rejects.toMatchObject({
      code: 'STORAGE_ERROR',
      message: expect.stringMatching(/readCacheBytes.*non-negative integer.*-1/) as unknown,
    });
  });
});
