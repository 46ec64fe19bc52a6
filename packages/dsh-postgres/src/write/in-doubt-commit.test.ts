import { describe, expect, it } from 'vitest';
import { openPostgresStore } from 'dsh-postgres';
import type { SessionStore } from 'dsh-session';
import { postgresTestUrl } from '@dsh/test-utils';
import { startCuttingProxy, type CuttingProxy } from '../__fixtures__/cutting-proxy.js';
import { testSchemas } from '../__fixtures__/test-schemas.js';
import { statementName } from '../schema/statement-name.js';

const url = postgresTestUrl();
const connectionString = url ?? '';

describe.skipIf(url === undefined)('a batch whose commit reply was lost with its connection', () => {
  const made = testSchemas(connectionString);

  async function fixture(
    prefix: string,
  ): Promise<{ store: SessionStore; proxy: CuttingProxy; name: string; stored: (id: string) => Promise<string[]> }> {
    const name = made.schema(prefix);
    const proxy = await startCuttingProxy(connectionString);
    const store = await openPostgresStore({ connectionString: proxy.via(connectionString), schema: name, hostId: 'doubt' });
    // Kept in this order: the store closes before its proxy goes.
    made.keep(store);
    made.keep(proxy);
    const stored = async (id: string): Promise<string[]> => {
      const { rows } = await made.query(
        name,
        `SELECT e.body FROM S.events e JOIN S.sessions s ON s.segment = e.segment WHERE s.id = $1 ORDER BY e.seq`,
        [id],
      );
      return rows.map((row: { body: string }) => row.body);
    };
    return { store, proxy, name, stored };
  }

  it('is recognised on the next flush: every event is stored once, the retry appends only what follows, and the session goes on', async () => {
    const { store, proxy, name, stored } = await fixture('doubt');
    const session = await store.create({ id: 'doubted' });
    session.append('session/title', { title: 'before' });
    await session.flush();
    // The next batch statement (its Bind names the prepared statement) commits; its reply is lost.
    const cut = proxy.cutReplyTo(statementName(name, 'append_one'));
    session.append('session/title', { title: 'in doubt 1' });
    session.append('session/title', { title: 'in doubt 2' });
    await expect(session.flush()).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    await cut;
    // The server did commit them (the premise of the test).
    expect(await stored('doubted')).toHaveLength(4);
    session.append('session/title', { title: 'after' });
    await session.flush();
    const lines = await stored('doubted');
    expect(lines.map((line) => (JSON.parse(line) as { seq: number }).seq)).toEqual([0, 1, 2, 3, 4]);
    expect(lines.map((line) => (JSON.parse(line) as { data: { title?: string } }).data.title)).toEqual([
      undefined,
      'before',
      'in doubt 1',
      'in doubt 2',
      'after',
    ]);
    expect((await store.inspect('doubted')).events).toEqual(session.events);
    await session.close();
  });

  it('a retry of exactly the batch in doubt writes nothing more and resolves', async () => {
    const { store, proxy, name, stored } = await fixture('doubt_same');
    const session = await store.create({ id: 'again' });
    const cut = proxy.cutReplyTo(statementName(name, 'append_one'));
    session.append('session/title', { title: 'once' });
    await expect(session.flush()).rejects.toMatchObject({ code: 'WRITE_FAILED' });
    await cut;
    await session.flush();
    expect(await stored('again')).toHaveLength(2);
    expect((await store.inspect('again')).events).toEqual(session.events);
    await session.close();
  });
});
