import { readFile, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSessionStore, openSessionStore, type SessionStore, type SessionSummary } from 'dsh-session';
import { asSessionBackend, fastBackendOf } from 'dsh-session/internal';
import { makeTempDir } from '@dsh/test-utils';
import { createJsonlBackend } from './jsonl-backend.js';
import { writeVerifiedStamp } from './jsonl-verified-stamp.js';

// `list()` on a JSONL directory reads each session's summary file (caught up with what was appended
// since, rebuilt from stamped bytes when missing), never its log: counted through the backend's reads.

type Counted = { store: SessionStore; reads: string[] };

describe('JSONL summary files', () => {
  let dir: Awaited<ReturnType<typeof makeTempDir>>;
  const opened: SessionStore[] = [];
  const fileOf = (id: string) => join(dir.path, `${id}.jsonl`);
  const summaryOf = (id: string) => join(dir.path, '.summaries', id);
  const exists = (path: string) =>
    stat(path).then(
      () => true,
      () => false,
    );

  /** A store over the directory whose backend counts its whole-log reads. */
  const countingStore = async (): Promise<Counted> => {
    const fast = fastBackendOf(await createJsonlBackend({ dir: dir.path }));
    const reads: string[] = [];
    const backend = asSessionBackend({
      ...fast,
      read: (id) => {
        reads.push(id);
        return fast.read(id);
      },
    });
    const store = createSessionStore({ backend });
    opened.push(store);
    return { store, reads };
  };
  /** The same list as a store reading every log whole (a public backend has no summary parts). */
  const listedWhole = async (): Promise<Omit<SessionSummary, 'busy'>[]> => {
    const store = createSessionStore({ backend: { ...(await createJsonlBackend({ dir: dir.path })) } });
    opened.push(store);
    return await store.list();
  };
  /** A session of `turns` closed turns, titled, with a cwd, written and released by a store. */
  const writeSession = async (store: SessionStore, id: string, turns: number, title = `title of ${id}`) => {
    const session = await store.create({ id, title, config: { cwd: `/work/${id}` } });
    for (let turn = 1; turn <= turns; turn++) {
      session.append('turn/start', { turn });
      session.append('user/message', { message: { id: `u${turn}`, role: 'user', content: [{ type: 'text', text: 'x'.repeat(200) }] } });
      session.append('turn/end', { turn, reason: { kind: 'completed' } });
    }
    await session.close();
  };

  beforeEach(async () => {
    dir = await makeTempDir();
  });
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close();
    await dir.remove();
  });

  it('lists stored sessions from their summaries without reading their logs, once rebuilt from stamped bytes', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    await writeSession(writer, 'long', 300);
    await writeSession(writer, 'short', 2, 'other');
    const whole = await listedWhole();

    const first = await countingStore();
    // No summary files yet: each is rebuilt from the log its verified stamp vouches for, not read as events.
    expect(await first.store.list()).toEqual(whole);
    expect(first.reads).toEqual([]);
    expect(await exists(summaryOf('long'))).toBe(true);

    const second = await countingStore();
    expect(await second.store.list()).toEqual(whole);
    expect(second.reads).toEqual([]);
  });

  it('catches up with lines appended since the summary without reading the lines before it', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    await writeSession(writer, 'grow', 50);
    await (await countingStore()).store.list();
    const session = await writer.open('grow');
    session.append('session/title', { title: 'renamed' });
    session.append('turn/start', { turn: 51 });
    await session.flush();
    // Still held: no fresh stamp vouches for the file, so only the summary's catch-up can answer.
    // A byte inside an early line is changed too: a read of the whole log would refuse it.
    const bytes = await readFile(fileOf('grow'));
    const early = bytes.indexOf('xxxxxxxx');
    bytes[early] = 'y'.charCodeAt(0);
    await writeFile(fileOf('grow'), bytes);

    const { store, reads } = await countingStore();
    const [listed] = await store.list();
    expect(reads).toEqual([]);
    expect(listed).toMatchObject({ id: 'grow', title: 'renamed', lastSeq: session.nextSeq - 1, needsRepair: true, busy: true });
    expect(listed?.problem).toBeUndefined();
  });

  it('reads a log whole when its summary is stale and no stamp vouches for it, or its last line is torn', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    await writeSession(writer, 'torn', 3);
    await writeSession(writer, 'foreign', 3);
    await (await countingStore()).store.list();
    await writeFile(fileOf('torn'), `${await readFile(fileOf('torn'), 'utf8')}{"seq":`);
    // Written by another program with the same header: the summary's last line no longer ends where it did.
    const text = await readFile(fileOf('foreign'), 'utf8');
    await writeFile(fileOf('foreign'), text.replace('title of foreign', 'title of FOREIGN').replace(/\n[^\n]*\n$/, '\n'));

    const { store, reads } = await countingStore();
    const listed = await store.list();
    expect(reads.sort()).toEqual(['foreign', 'torn']);
    expect(listed.find((item) => item.id === 'torn')).toMatchObject({ needsRepair: true });
    expect(listed.find((item) => item.id === 'foreign')).toMatchObject({ title: 'title of FOREIGN', lastSeq: 10 });
    // No summary is made of bytes nobody vouched for: the next listing reads them again.
    expect(await readFile(summaryOf('foreign'), 'utf8')).not.toContain('FOREIGN');
    const again = await countingStore();
    await again.store.list();
    expect(again.reads.sort()).toEqual(['foreign', 'torn']);
  });

  it('rebuilds a missing summary, forgets it with the session, and never trusts a summary of another header', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    await writeSession(writer, 'kept', 4);
    await (await countingStore()).store.list();
    await rm(summaryOf('kept'));
    const rebuilt = await countingStore();
    expect((await rebuilt.store.list())[0]).toMatchObject({ id: 'kept', title: 'title of kept', lastSeq: 14 });
    expect(rebuilt.reads).toEqual([]);
    expect(await exists(summaryOf('kept'))).toBe(true);

    // Same id again, new log: the old summary describes another header and is not used.
    await writer.delete('kept');
    expect(await exists(summaryOf('kept'))).toBe(false);
    await writeVerifiedStamp(dir.path, 'kept', { size: 0, crc32: 0 });
    await writeSession(writer, 'kept', 1, 'second life');
    const after = await countingStore();
    expect((await after.store.list())[0]).toMatchObject({ id: 'kept', title: 'second life', lastSeq: 5 });
  });

  it('summarizes a session the store itself holds from memory, never from its stored log', async () => {
    const { store, reads } = await countingStore();
    await writeSession(store, 'mine', 2);
    const session = await store.open('mine');
    session.append('session/title', { title: 'live title' });
    await session.flush();
    await rm(summaryOf('mine'), { force: true });
    const [listed] = await store.list();
    expect(listed).toMatchObject({ id: 'mine', title: 'live title', lastSeq: session.nextSeq - 1, busy: true });
    expect(reads).toEqual([]);
  });

  it('says when a fork’s latest title came with its inherited prefix, from summary files and from memory', async () => {
    const { store, reads } = await countingStore();
    await writeSession(store, 'named', 2);
    await (await store.fork('named', { atSeq: 4, id: 'inherits' })).close();
    await (await store.fork('named', { atSeq: 4, id: 'own', title: 'own name' })).close();
    const live = await store.fork('named', { atSeq: 4, id: 'live' });
    // Each fork read its parent; the listings below read no log.
    reads.length = 0;
    const byId = new Map((await store.list()).map((summary) => [summary.id, summary]));
    expect(byId.get('named')?.titleInherited).toBeUndefined();
    expect(byId.get('inherits')).toMatchObject({ title: 'title of named', titleInherited: true });
    expect(byId.get('own')).toMatchObject({ title: 'own name' });
    expect(byId.get('own')?.titleInherited).toBeUndefined();
    expect(byId.get('live')).toMatchObject({ titleInherited: true });
    live.append('session/title', { title: 'renamed live' });
    expect((await store.list()).find((summary) => summary.id === 'live')?.titleInherited).toBeUndefined();
    await live.close();
    expect(reads).toEqual([]);
  });

  it('reads a header line longer than its first read', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    const long = 'w'.repeat(20_000);
    const session = await writer.create({ id: 'wide', config: { cwd: `/work/${long}` } });
    await session.close();
    const text = await readFile(fileOf('wide'), 'utf8');
    expect(text.indexOf('\n')).toBeGreaterThan(16_384);
    await (await countingStore()).store.list();
    const { store, reads } = await countingStore();
    expect((await store.list())[0]).toMatchObject({ id: 'wide', cwd: `/work/${long}` });
    expect(reads).toEqual([]);
  });

  it('writes the summary of a new session and of a fork when it creates them, so neither is read to be listed', async () => {
    const writer = await openSessionStore({ dir: dir.path });
    opened.push(writer);
    await writeSession(writer, 'parent', 40);
    await (await countingStore()).store.list();
    await (await writer.fork('parent', { atSeq: 61, id: 'mid-turn' })).close();
    await (await writer.fork('parent', { atSeq: 32, id: 'between', title: 'own' })).close();
    expect(await exists(summaryOf('mid-turn'))).toBe(true);
    expect(await exists(summaryOf('between'))).toBe(true);
    // The stamps are removed: only the summaries written at create can answer without a read.
    await rm(join(dir.path, '.verified'), { recursive: true });
    const { store, reads } = await countingStore();
    const listed = await store.list();
    expect(reads).toEqual([]);
    expect(listed).toEqual(await listedWhole());
  });
});
